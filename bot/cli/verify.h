/* verify.h: `cardbot verify` (deck commitments of a record) and `cardbot export` (records from the database). */
#ifndef CARDBOT_VERIFY_H
#define CARDBOT_VERIFY_H

int verify_main(int argc, char **argv);
int export_main(int argc, char **argv);

#endif
