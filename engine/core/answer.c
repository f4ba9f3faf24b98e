/* answer.c: filling a game's answer to an action. */
#include "answer.h"

void play_clear(play_result *res)
{
	if (res) {
		res->err = 0;
		res->a = res->b = 0;
		res->nevents = 0;
	}
}

int play_start(play_result *res, int seat, int nseats, int type, int ntypes, int err_seat, int err_action)
{
	play_clear(res);
	if (seat >= nseats)
		return play_refuse(res, err_seat, seat, 0);
	if (type >= ntypes)
		return play_refuse(res, err_action, type, 0);
	return 0;
}

int play_refuse(play_result *res, int err, int a, int b)
{
	if (res) {
		res->err = err;
		res->a = a;
		res->b = b;
		res->nevents = 0;
	}
	return err;
}

void play_emit(play_result *res, int type, int seat, int value, uint8_t card, int flags)
{
	if (!res || res->nevents >= PLAY_EVENTS_MAX)
		return;
	play_event *e = &res->events[res->nevents++];
	e->type = (uint8_t)type;
	e->seat = (uint8_t)seat;
	e->value = (uint16_t)value;
	e->card = card;
	e->flags = (uint8_t)flags;
}
