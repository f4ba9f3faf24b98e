/* device.h: `cardbot device`: the bot's Matrix encryption devices and their fingerprints. */
#ifndef CARDBOT_DEVICE_H
#define CARDBOT_DEVICE_H

int device_main(int argc, char **argv);

#endif
