/* play.h: the `cardbot play` subcommand: a table in the terminal against computer players, no server needed. */
#ifndef CARDBOT_PLAY_H
#define CARDBOT_PLAY_H

/* Runs a game on the console (argv[0] is "play"); returns an exit status. */
int play_main(int argc, char **argv);

#endif
