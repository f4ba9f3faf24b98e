/* run.h: the `cardbot run` subcommand. */
#ifndef CARDBOT_RUN_H
#define CARDBOT_RUN_H

/* Runs the bot (argv[0] is "run"); returns an exit status. */
int run_main(int argc, char **argv);

#endif
