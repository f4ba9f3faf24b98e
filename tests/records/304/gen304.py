"""gen304.py: the helpers behind gen_records.py. A small model of the 304
rules, written from the rule documents (seeds 000 and 001, RULES.md), that
checks a hand-made record before it is written: that every action meant to be
accepted is legal, that every refusal is meant, and what the deal scores.

It is a tester's aid, not the engine: its points and tokens are compared with
the figures written by hand in gen_records.py, and both go into the .expect.
For caps it has its own certainty check (CapsCheck, at the end), which
checks the hand-written verdicts of the caps records and follows, after every
card, when caps first became certain for a team.
"""
import json
import os

RANKS = "78QKTA9J"            # ascending strength within a suit
POINTS = {"J": 30, "9": 20, "A": 11, "T": 10, "K": 3, "Q": 2, "8": 0, "7": 0}
SUITS = "SHDC"
ALL = [r + s for s in SUITS for r in "789TJQKA"]


def pts(c):
    return POINTS[c[0]]


def suit(c):
    return c[1]


def strength(c):
    return RANKS.index(c[0])


def team(s):
    return s & 1


def partner(s):
    return (s + 2) & 3


def payoff(bid):
    if bid == "pcc":
        return 4
    return 1 if bid < 200 else 2 if bid < 250 else 3


def charge(bid):
    if bid == "pcc":
        return 5
    return 2 if bid < 200 else 3 if bid < 250 else 4


def bidval(v):
    return 400 if v == "pcc" else v


class Refused(Exception):
    pass


class Model:
    """One match under the given rules, fed deals and actions."""

    def __init__(self, rules, dealer):
        self.rules = rules
        self.single = rules.get("bidding") == "single"
        self.fives = rules.get("fives") == "on"
        self.bank = rules.get("scoring") == "bank"
        self.caps_off = rules.get("caps") == "off"
        self.caps_mode = rules.get("caps", "strict")
        self.external = rules.get("external_caps") in ("on", True)
        self.track = False      # follow when caps becomes certain (CapsCheck): caps records only
        self.track_budget = 300000
        self.hand_certain = None  # set by Record.caps for closed positions
        self.dealer = dealer
        self.tokens = [11, 11]
        self.winner = None
        self.phase = "deal"
        self.ends = []

    # ---- dealing -----------------------------------------------------
    def deck_for(self, hands):
        """hands: seat -> (first4, last4). Returns the deck, top first."""
        D = self.dealer
        order = [(D + 1) % 4, (D + 2) % 4, (D + 3) % 4, D]
        deck = []
        for half in (0, 1):
            for s in order:
                cards = hands[s][half]
                assert len(cards) == 4, (s, cards)
                deck += cards
        assert sorted(deck) == sorted(ALL), "deck is not the 32 cards: %s" % deck
        return deck

    def start(self, hands):
        assert self.phase == "deal"
        self.first4 = {s: list(hands[s][0]) for s in range(4)}
        self.last4 = {s: list(hands[s][1]) for s in range(4)}
        self.dealt = {s: self.first4[s] + self.last4[s] for s in range(4)}
        self.hand = {s: list(self.first4[s]) for s in range(4)}
        self.phase = "bid4"
        self.turn = (self.dealer + 1) % 4
        self.asker = None
        self.spoke = set()
        self.passes = 0
        self.bid = 0
        self.bidder = None
        self.any200 = False
        self.nacted = 0
        self.trumper = None
        self.trump_card = None
        self.trump_suit = None
        self.trump_down = False
        self.open = False
        self.pcc = False
        self.sitting = None
        self.exhausted = False
        self.bid8 = 0
        self.bidder8 = None
        self.turns8 = 0
        self.tricks = []       # completed: list of (leader, [(seat, card, down)], winner)
        self.cur = []
        self.leader = None
        self.won = [[], []]
        self.tricks_won = [0, 0]
        self.end = None
        self.trick_rev = []    # per completed trick: its face-down cards were turned up
        self.tc_shown = False  # the trump card has been shown to all
        self.caps_seat = None
        self.caps_order = None
        self.caps_k = 0
        self.caps_judged = None   # "correct", "early", "late"
        self.caps_bonus = False
        self.caps_failed = False
        self.caps_at = None       # cards played when caps was called
        self.caps_since = [None, None]  # per team: trick index (-1: before play) caps first certain
        self.certain_log = []     # (cards played, seat, order) each time found certain
        self.caps_end = "none"
        self.track_unknown = []   # (cards played, seat) where the tracker gave up

    # ---- actions -----------------------------------------------------
    def apply(self, seat, do, value=None, card=None, order=None):
        """Applies an action; returns None, or the refusal code."""
        import copy
        saved = copy.deepcopy(self.__dict__)
        try:
            if do == "caps":
                self._caps(seat, order)
            else:
                self._apply(seat, do, value, card)
            if self.phase not in ("deal", "over"):
                self.nacted += 1
            if self.phase == "play" and do in ("play", "open") and self.track:
                self._track()
            return None
        except Refused as e:
            self.__dict__ = saved
            return str(e)

    def _apply(self, s, do, value, card):
        if self.phase == "over":
            raise Refused("match_over")
        if self.phase == "deal":
            raise Refused("no_deal")
        if do == "spoilt":
            return self._spoilt(s)
        if self.phase == "bid4":
            return self._bid4(s, do, value)
        if self.phase in ("trump4", "trump8"):
            if do != "trump":
                raise Refused("wrong_phase")
            if s != self.trumper:
                raise Refused("not_trumper")
            return self._trump(card)
        if self.phase == "bid8":
            return self._bid8(s, do, value)
        if self.phase == "play":
            if do == "open":
                return self._open(s)
            if do != "play":
                raise Refused("wrong_phase")
            return self._play(s, card)
        raise AssertionError(self.phase)

    def _check_step(self, v):
        if v == "pcc":
            return
        if v > 300:
            raise Refused("bid_too_high")
        if v % 10 and not (self.fives and v >= 200 and v % 5 == 0):
            raise Refused("bid_not_multiple")

    def _bid4(self, s, do, value):
        D = self.dealer
        if do == "redeal":
            if s != (D + 1) % 4:
                raise Refused("reject_not_first")
            if self.nacted:
                raise Refused("reject_too_late")
            p = sum(pts(c) for c in self.first4[s])
            if p >= 15:
                raise Refused("reject_points")
            self._end_deal("redeal")
            return
        actor = partner(self.asker) if self.asker is not None else self.turn
        if s != actor:
            raise Refused("not_your_turn")
        if do == "partner":
            if self.asker is not None:
                raise Refused("ask_answering")
            if self.bidder == partner(s):
                raise Refused("ask_partner_high")
            self.asker = s
            return
        if do == "bid":
            v = value
            if v == "pcc":
                raise Refused("pcc_four")
            self._check_step(v)
            if v < 160:
                raise Refused("bid_too_low")
            if v <= self.bid:
                raise Refused("bid_not_higher")
            if self.single:
                exception = v >= 200 and not self.any200
                if s in self.spoke and not exception:
                    raise Refused("single_once")
                if self.bidder == partner(s) and not exception:
                    raise Refused("single_partner")
            else:
                if v < 200 and s in self.spoke:
                    raise Refused("bid_second_turn")
                if v < 200 and self.bidder == partner(s):
                    raise Refused("bid_over_partner")
            self.bid, self.bidder = v, s
            if v >= 200:
                self.any200 = True
            self.passes = 0
        elif do == "pass":
            self.passes += 1
        else:
            raise Refused("wrong_phase")
        owner = self.asker if self.asker is not None else s
        self.spoke.add(s)
        self.spoke.add(owner)
        self.asker = None
        if self.bid and self.passes >= 3:
            self.trumper = self.bidder
            self.phase = "trump4"
            return
        if not self.bid and self.passes >= 4:
            self._end_deal("passed_out")
            return
        t = (owner + 1) % 4
        if t == self.bidder:
            t = (t + 1) % 4
        self.turn = t

    def _trump(self, card):
        s = self.trumper
        if self.phase == "trump4":
            if card not in self.first4[s]:
                if card in self.last4[s]:
                    raise Refused("not_in_hand")  # not dealt yet
                raise Refused("not_in_hand")
        else:
            if card not in self.hand[s]:
                raise Refused("not_in_hand")
        self.hand[s].remove(card)
        self.trump_card = card
        self.trump_suit = suit(card)
        self.trump_down = True
        if self.phase == "trump4":
            for t in range(4):
                self.hand[t] += self.last4[t]
            self.phase = "bid8"
            self.turn = s
            self.turns8 = 0
        else:
            self._start_play()

    def _bid8(self, s, do, value):
        if s != self.turn:
            raise Refused("not_your_turn")
        if do == "partner":
            raise Refused("ask_eight")
        if do == "bid":
            v = value
            self._check_step(v)
            if v != "pcc" and v < 250:
                raise Refused("bid_too_low")
            if bidval(v) <= max(self.bid, bidval(self.bid8)):
                raise Refused("bid_not_higher")
            if self.bidder8 == partner(s):
                raise Refused("bid8_partner")
            self.bid8, self.bidder8 = bidval(v), s
        elif do != "pass":
            raise Refused("wrong_phase")
        self.turns8 += 1
        if self.turns8 == 4 or self.bid8 == 400:
            if self.bid8:
                # the old trump card goes back to its owner
                self.hand[self.trumper].append(self.trump_card)
                self.trump_card = None
                self.trump_down = False
                self.trumper = self.bidder8
                self.bid = self.bid8
                if self.bid8 == 400:
                    self.pcc = True
                    self.bid = "pcc"
                    self.sitting = partner(self.trumper)
                self.phase = "trump8"
            else:
                self._start_play()
            return
        self.turn = (s + 1) % 4

    def _start_play(self):
        self.phase = "play"
        self.leader = self.trumper if self.pcc else (self.dealer + 1) % 4
        self.turn = self.leader
        self.cur = []

    def _open(self, s):
        if s != self.trumper:
            raise Refused("not_trumper")
        if self.open:
            raise Refused("already_open")
        if self.tricks or self.cur:
            raise Refused("open_too_late")
        self.open = True
        self.tc_shown = True
        self.hand[s].append(self.trump_card)
        self.trump_down = False

    def _legal_card(self, s, c):
        import copy
        saved = copy.deepcopy(self.__dict__)
        self.caps_failed = True
        try:
            self._play(s, c)
            ok = True
        except Refused:
            ok = False
        self.__dict__ = saved
        return ok

    def cards_played(self):
        return sum(len(t[1]) for t in self.tricks) + len(self.cur)

    def mycards(self, s):
        c = list(self.hand[s])
        if s == self.trumper and self.trump_down:
            c.append(self.trump_card)
        return c

    def certain_now(self, s, order):
        """The tester's check (trump open), else the hand verdict given."""
        if self.open:
            return caps_certain(self, s, order)
        assert self.hand_certain is not None, \
            "caps call while the trump is closed: give certain= by hand"
        return self.hand_certain

    def _caps(self, s, order):
        if self.phase != "play":
            raise Refused("wrong_phase")
        if self.caps_off:
            raise Refused("caps_off")
        if self.pcc:
            raise Refused("caps_pcc")
        if team(s) != team(self.trumper) and not self.external:
            raise Refused("caps_not_yours")
        if self.caps_seat is not None:
            raise Refused("caps_called")
        if len(set(order)) != len(order) or sorted(order) != sorted(self.mycards(s)):
            raise Refused("caps_order")
        certain = self.certain_now(s, order)
        n = self.cards_played()
        t0 = self.caps_since[team(s)]
        if not certain:
            judged = "early"
        elif t0 is None:
            # first certain now (a closed position, judged by hand), unless
            # the tracker gave up somewhere: then the record must say when
            gave_up = [x for x in self.track_unknown if team(x[1]) == team(s)]
            assert not gave_up, "the caps tracker gave up at %s: use Record.certain_at" % gave_up
            self.caps_since[team(s)] = len(self.tricks)
            judged = "correct"
        elif (t0 == -1 and n > 0) or (t0 >= 0 and n > 4 * (t0 + 1)):
            judged = "late"
        else:
            judged = "correct"
        self.caps_seat = s
        self.caps_order = list(order)
        self.caps_k = 0
        self.caps_judged = judged
        self.caps_at = n
        self.caps_bonus = n <= 4 * 6    # before the first card of the seventh trick

    def _track(self):
        """After each card: does some player of a team (the trumper's, and
        with external caps the other) now have a certain order?"""
        if not self.open or self.pcc:
            return
        teams = [team(self.trumper)] + ([1 - team(self.trumper)] if self.external else [])
        for t in teams:
            if self.caps_since[t] is not None:
                continue
            for s in (t, t + 2):
                if s == self.sitting or not self.hand[s]:
                    continue
                o = caps_find(self, s, self.track_budget)
                if o == "unknown":
                    self.track_unknown.append((self.cards_played(), s))
                    continue
                if o:
                    self.caps_since[t] = len(self.tricks) - (0 if self.cur else 1)
                    self.certain_log.append((self.cards_played(), s, o))
                    break

    def next_seat(self, s):
        t = (s + 1) % 4
        if t == self.sitting:
            t = (t + 1) % 4
        return t

    def holds_trump(self, s):
        return any(suit(c) == self.trump_suit for c in self.hand[s])

    def _play(self, s, card):
        if s == self.sitting:
            raise Refused("sitting_out")
        if s != self.turn:
            raise Refused("not_your_turn")
        if s == self.caps_seat and self.caps_k < len(self.caps_order):
            nxt = self.caps_order[self.caps_k]
            if card != nxt:
                if self._legal_card(s, nxt):
                    raise Refused("caps_next")
                # The order cannot be played: the claim was never certain
                # (judged early at the call); the caller plays on freely.
                # Only a lost trick costs 5 (000 4.3).
                self.caps_k = len(self.caps_order)
            else:
                self.caps_k += 1
        tr = s == self.trumper
        is_tc = tr and self.trump_down and card == self.trump_card
        hand = self.hand[s]
        if not is_tc and card not in hand:
            raise Refused("not_in_hand")
        last_only_tc = tr and self.trump_down and not hand
        T = self.trump_suit
        down = False
        if not self.cur:  # leading
            if is_tc and not last_only_tc:
                raise Refused("trump_card_reserved")
            if tr and not self.open and not self.tricks and s == (self.dealer + 1) % 4 \
                    and suit(card) == T and not self.pcc:
                raise Refused("no_trump_lead_first")
            if tr and self.exhausted and self.holds_trump(s) and suit(card) != T:
                raise Refused("exhausted_trumps")
            if tr and not self.pcc and suit(card) == T and not is_tc and not self.exhausted:
                others = any(self.holds_trump(t) for t in range(4) if t != s)
                if not others:
                    self.exhausted = True
        else:
            led = suit(self.cur[0][1])
            has = [c for c in hand if suit(c) == led]
            if last_only_tc:
                down = led != T and not self.open
            elif has:
                if is_tc:
                    raise Refused("follow_suit" if led != T else "trump_card_reserved")
                if suit(card) != led:
                    raise Refused("follow_suit")
            else:
                if tr and self.trump_down:
                    if is_tc and led == T:
                        raise Refused("trump_card_reserved")
                    if not is_tc and suit(card) == T:
                        raise Refused("cut_with_trump_card")
                down = not self.open
        if is_tc:
            self.trump_down = False
        else:
            hand.remove(card)
        if tr and self.exhausted and not self.holds_trump(s):
            self.exhausted = False
        self.cur.append((s, card, down))
        n = 3 if self.pcc else 4
        if len(self.cur) < n:
            self.turn = self.next_seat(s)
            return
        self._finish_trick()

    def _finish_trick(self):
        T = self.trump_suit
        led = suit(self.cur[0][1])
        self.trick_rev.append(not self.open and any(x[2] and suit(x[1]) == T for x in self.cur))
        trumps = [x for x in self.cur if suit(x[1]) == T]
        pool = trumps if trumps else [x for x in self.cur if suit(x[1]) == led]
        winner = max(pool, key=lambda x: strength(x[1]))[0]
        if not self.open and any(x[2] and suit(x[1]) == T for x in self.cur):
            self._reveal()
        if not self.open and not self.tricks and (self.pcc or self.bid >= 250):
            self._reveal()
        if self.caps_seat is not None and team(winner) != team(self.caps_seat):
            self.caps_failed = True
        self.tricks.append((self.cur[0][0], list(self.cur), winner))
        self.won[team(winner)] += [x[1] for x in self.cur]
        self.tricks_won[team(winner)] += 1
        self.cur = []
        if len(self.tricks) == 8:
            self._score()
        else:
            self.turn = winner
            if self.trumper == winner and self.exhausted and not self.holds_trump(winner):
                self.exhausted = False

    def _reveal(self):
        self.tc_shown = True
        self.open = True
        if self.trump_down:
            self.hand[self.trumper].append(self.trump_card)
            self.trump_down = False

    def _score(self):
        tt = team(self.trumper)
        p = [sum(pts(c) for c in self.won[0]), sum(pts(c) for c in self.won[1])]
        if self.pcc:
            p[tt] += sum(pts(c) for c in self.dealt[self.sitting])
            made = self.tricks_won[tt] == 8
        else:
            made = p[tt] >= self.bid
            assert self.caps_off or self.track or self.tricks_won[tt] < 8, \
                "the trumper's team wins every trick: set caps off (or track caps)"
        assert sum(p) == 304, p
        caps, seat = "none", self.caps_seat
        strict = self.caps_mode == "strict"
        if seat is not None:
            ct = team(seat)
            if self.caps_failed:
                caps = "failed"
                self._pay(ct, 1 - ct, 5)
            elif self.caps_judged == "early" or (self.caps_judged == "late" and strict):
                caps = self.caps_judged
                self._pay(ct, 1 - ct, 2)
            else:
                caps = self.caps_judged
                bonus = 1 if caps == "correct" and self.caps_bonus else 0
                if ct == tt:
                    self._pay(1 - tt, tt, payoff(self.bid) + bonus)
                else:
                    self._pay(tt, 1 - tt, charge(self.bid) + bonus)
        elif not self.pcc and self.tricks_won[tt] == 8 and strict and \
                self.caps_since[tt] is not None:
            caps = "late"
            self._pay(tt, 1 - tt, 2)
        elif made:
            self._pay(1 - tt, tt, payoff(self.bid))
        else:
            self._pay(tt, 1 - tt, charge(self.bid))
        self.caps_end = caps
        self._end_deal("scored", points=p, made=made)

    def _pay(self, loser, gainer, n):
        n = min(n, self.tokens[loser])
        self.tokens[loser] -= n
        if not self.bank:
            self.tokens[gainer] += n

    def _spoilt(self, s):
        if self.phase != "play":
            raise Refused("wrong_phase")
        opp = [t for t in range(4) if team(t) != team(self.trumper)]
        right = not any(suit(c) == self.trump_suit for t in opp for c in self.dealt[t])
        if right:
            self._end_deal("spoilt", spoilt_right=True)
        else:
            tt = team(self.trumper)
            if team(s) == tt:
                self._pay(tt, 1 - tt, charge(self.bid) + 2)
            else:
                self._pay(1 - tt, tt, payoff(self.bid) + 2)
            self._end_deal("spoilt", spoilt_right=False)

    def _end_deal(self, outcome, points=None, made=None, spoilt_right=None):
        self.end = dict(outcome=outcome, points=points, made=made,
                        caps=getattr(self, "caps_end", "none") if outcome == "scored" else "none",
                        caps_seat=self.caps_seat if outcome == "scored" else None,
                        trumper=self.trumper, bid=self.bid if self.trumper is not None else None,
                        tokens=list(self.tokens), spoilt_right=spoilt_right)
        self.ends.append(self.end)
        if outcome in ("scored", "passed_out") or spoilt_right is False:
            self.dealer = (self.dealer + 1) % 4
        if 0 in self.tokens:
            self.winner = 0 if self.tokens[1] == 0 else 1
            self.phase = "over"
        else:
            self.phase = "deal"

    # ---- helpers for writing play ------------------------------------
    def legal(self, s):
        """Cards seat s may play now (by trying each)."""
        out = []
        cands = list(self.hand[s])
        if s == self.trumper and self.trump_down:
            cands.append(self.trump_card)
        for c in cands:
            import copy
            saved = copy.deepcopy(self.__dict__)
            try:
                self._play(s, c)
                out.append(c)
            except Refused:
                pass
            self.__dict__ = saved
        return out


def spec_hands(spec):
    """{seat: "a b c d | e f g h"} -> {seat: ([4], [4])}"""
    out = {}
    for s, text in spec.items():
        a, b = text.split("|")
        out[s] = (a.split(), b.split())
    return out


class Record:
    """Builds one record and its expectations."""

    def __init__(self, name, dealer=0, rules=None, note="", track_caps=False):
        self.name = name
        self.note = note
        self.rules = dict(rules or {})
        self.m = Model(self.rules, dealer)
        self.m.track = track_caps and self.rules.get("caps") != "off"
        self.first_dealer = dealer
        self.deals = []
        self.expect = []
        self.extra = []      # '#noview' / '#hasview' / '!' lines
        self.pref = {}

    # -- deals --
    def deal(self, spec, pref=None):
        hands = spec_hands(spec)
        deck = self.m.deck_for(hands)
        self.m.start(hands)
        self.deals.append({"deck": deck, "actions": []})
        # play preference: the order the cards are written in, unless given
        self.pref = {s: hands[s][0] + hands[s][1] for s in range(4)}
        if pref:
            for s, text in pref.items():
                self.pref[s] = text.split()
        return len(self.deals) - 1

    @property
    def d(self):
        return len(self.deals) - 1

    def act(self, seat, do, value=None, card=None, err=None, order=None):
        a = {"seat": seat, "do": do}
        if value is not None:
            a["value"] = value
        if card is not None:
            a["card"] = card
        if order is not None:
            a["order"] = order
        acts = self.deals[-1]["actions"]
        i = len(acts)
        acts.append(a)
        got = self.m.apply(seat, do, value=value, card=card, order=order)
        if err is None:
            assert got is None, "%s deal %d action %d %s: model refuses: %s" % (
                self.name, self.d, i, a, got)
            self.expect.append({"deal": self.d, "action": i, "ok": True})
        else:
            assert got is not None, "%s deal %d action %d %s: model accepts, %s expected" % (
                self.name, self.d, i, a, err)
            if got != err:
                print("note: %s deal %d action %d %s: model says %s, record says %s" % (
                    self.name, self.d, i, a, got, err))
            self.expect.append({"deal": self.d, "action": i, "ok": False, "code": err})
        return i

    # shorthands
    def bid(self, seat, value, err=None):
        return self.act(seat, "bid", value=value, err=err)

    def pas(self, *seats, err=None):
        for s in seats:
            i = self.act(s, "pass", err=err)
        return i

    def ask(self, seat, err=None):
        return self.act(seat, "partner", err=err)

    def trump(self, seat, card, err=None):
        return self.act(seat, "trump", card=card, err=err)

    def open(self, seat, err=None):
        return self.act(seat, "open", err=err)

    def play(self, seat, card, err=None):
        return self.act(seat, "play", card=card, err=err)

    def spoilt(self, seat, err=None):
        return self.act(seat, "spoilt", err=err)

    def caps(self, seat, order, err=None, certain=None, judged=None):
        """A caps call. order: a list or a string of cards. certain: the hand
        verdict, required while the trump is closed and, where given, checked
        against the tester's search; judged: the verdict expected
        (correct/early/late), checked against the model."""
        if isinstance(order, str):
            order = order.split()
        m = self.m
        if err is None and m.phase == "play" and m.open and certain is not None:
            got = caps_certain(m, seat, order)
            assert got == certain, "%s: caps by seat %d %s: hand says certain=%s, search says %s" % (
                self.name, seat, order, certain, got)
        m.hand_certain = certain
        i = self.act(seat, "caps", order=order, err=err)
        m.hand_certain = None
        if err is None and judged is not None:
            assert m.caps_judged == judged, "%s: caps by seat %d judged %s, model says %s (since %s)" % (
                self.name, seat, judged, m.caps_judged, m.caps_since)
        return i

    def certain_at(self, seat, order):
        """Shows (by the full search) that seat has a certain order now, for
        positions where the tracker's budget is too small; caps is then
        certain for its team from this moment on at the latest."""
        m = self.m
        if isinstance(order, str):
            order = order.split()
        assert caps_certain(m, seat, order), "%s: seat %d: %s is not certain" % (self.name, seat, order)
        t = team(seat)
        now = len(m.tricks) - (0 if m.cur else 1)
        if m.caps_since[t] is None or m.caps_since[t] > now:
            m.caps_since[t] = now
        n = m.cards_played()
        m.track_unknown = [x for x in m.track_unknown if team(x[1]) != t or x[0] != n]

    def since(self, team_, trick):
        """Asserts the trick in which caps first became certain for the team."""
        assert self.m.caps_since[team_] == trick, "%s: caps certain for team %d since %s, hand says %s (%s)" % (
            self.name, team_, self.m.caps_since[team_], trick, self.m.certain_log)

    def plays(self, text):
        """'1:9H 2:7H 3:KH 0:AH' (seat:card, in order)."""
        last = None
        for tok in text.split():
            s, c = tok.split(":")
            last = self.play(int(s), c)
        return last

    def auto(self, tricks=None, until_end=True):
        """Plays on, each seat playing its first legal card in preference order."""
        m = self.m
        start = len(m.tricks)
        last = None
        while m.phase == "play":
            if tricks is not None and len(m.tricks) - start >= tricks and not m.cur:
                break
            s = m.turn
            legal = m.legal(s)
            assert legal, "%s: seat %d has no legal card" % (self.name, s)
            c = next(c for c in self.pref[s] if c in legal)
            last = self.play(s, c)
        return last

    def cards(self, n):
        """Plays n more cards by preference (for stopping inside a trick)."""
        last = None
        for _ in range(n):
            s = self.m.turn
            legal = self.m.legal(s)
            c = next(c for c in self.pref[s] if c in legal)
            last = self.play(s, c)
        return last

    def where(self):
        """(deal, index of the next action)."""
        return self.d, len(self.deals[-1]["actions"])

    # -- expectations --
    def end(self, outcome="scored", points=None, made=None, tokens=None, trumper="?", bid="?",
            caps="?", caps_seat="?"):
        e = self.m.ends[-1]
        if os.environ.get("PROBE"):
            print("PROBE %s deal %d: %s" % (self.name, self.d, e))
            for k, (ld, cards, w) in enumerate(self.m.tricks):
                print("   T%d %s -> %d (%d)" % (k + 1, " ".join("%d:%s%s" % (s, c, "v" if dn else "")
                      for s, c, dn in cards), w, sum(pts(c) for _, c, _ in cards)))
            points, made, tokens = e["points"], e["made"], e["tokens"]
        assert e["outcome"] == outcome or (outcome == "spoilt" and e["outcome"] == "spoilt"), (self.name, e)
        want = {"outcome": outcome}
        if outcome == "scored":
            assert points == e["points"], "%s: hand points %s, model %s" % (self.name, points, e["points"])
            assert made == e["made"], (self.name, made, e)
            want.update(trumper=e["trumper"], bid=e["bid"], points=points, made=made)
        elif outcome in ("passed_out", "redeal"):
            want.update(trumper=None, made=None)
        assert tokens == e["tokens"], "%s: hand tokens %s, model %s" % (self.name, tokens, e["tokens"])
        want["tokens"] = tokens
        if trumper != "?":
            want["trumper"] = trumper
        if bid != "?":
            want["bid"] = bid
        if caps != "?":
            assert caps == e["caps"], "%s: caps %s, model %s" % (self.name, caps, e["caps"])
            want["caps"] = caps
        if caps_seat != "?":
            assert caps_seat == e["caps_seat"], "%s: caps_seat %s, model %s" % (self.name, caps_seat, e["caps_seat"])
            want["caps_seat"] = caps_seat
        self.expect.append({"deal": self.d, "end": want})

    def end_wrong_spoilt(self, tokens):
        e = self.m.ends[-1]
        assert e["spoilt_right"] is False and tokens == e["tokens"], (self.name, e)
        self.expect.append({"deal": self.d, "end": {"tokens": tokens}})

    def noview(self, seat, card, deal=None, frm=None, to=None):
        parts = ["#noview", str(seat), card] + [str(x) for x in (deal, frm, to) if x is not None]
        self.extra.append(" ".join(parts))

    def hasview(self, seat, card, deal, action):
        self.extra.append("#hasview %d %s %d %d" % (seat, card, deal, action))

    def never(self, obj):
        self.extra.append("!" + json.dumps(obj))

    def write(self, outdir):
        m = self.m
        rec = {"format": "cardbot-record/1", "game": "304"}
        if self.rules:
            rec["rules"] = self.rules
        rec["players"] = ["ann", "ben", "cat", "dev"]
        rec["dealer"] = self.first_dealer
        rec["deals"] = self.deals
        match = {"tokens": m.tokens, "winner": m.winner}
        if m.winner is not None:
            match["complete"] = True
        lines = [json.dumps(x) for x in self.expect]
        lines.append(json.dumps({"match": match}))
        lines += self.extra
        with open(os.path.join(outdir, self.name + ".json"), "w") as f:
            f.write(_dump_record(rec))
        with open(os.path.join(outdir, self.name + ".expect"), "w") as f:
            if self.note:
                for ln in self.note.strip().splitlines():
                    f.write("# " + ln + "\n")
            f.write("\n".join(lines) + "\n")


def _dump_record(rec):
    """JSON with one action a line, readable in a diff."""
    out = ["{"]
    keys = [k for k in rec if k != "deals"]
    for k in keys:
        out.append("  %s: %s," % (json.dumps(k), json.dumps(rec[k])))
    out.append('  "deals": [')
    for di, d in enumerate(rec["deals"]):
        out.append("    {")
        out.append('      "deck": %s,' % json.dumps(d["deck"]))
        out.append('      "actions": [')
        for ai, a in enumerate(d["actions"]):
            out.append("        %s%s" % (json.dumps(a), "," if ai < len(d["actions"]) - 1 else ""))
        out.append("      ]")
        out.append("    }%s" % ("," if di < len(rec["deals"]) - 1 else ""))
    out.append("  ]")
    out.append("}")
    return "\n".join(out) + "\n"


# ---- caps: a tester's own certainty check -------------------------------
#
# Written from 000 4.3 and 001 "Caps" and the engine's stated interface: a
# call is certain when playing the order wins every remaining trick for the
# caller's team whatever legal cards the other three play (the partner
# included) and however the cards the caller has not seen lie, consistent
# with what it has seen. It is an exhaustive search (cards the caller has not
# seen are placed lazily, each partial placement kept completable: Hall's
# condition over suits), small and slow, enough for hand-made records. It
# only judges positions where the trump is open (known to all); anything
# earlier is argued by hand in gen_records.py.

def _feasible(pool_by_suit, holders):
    """holders: list of [cap, voids]; every pool card must go to a holder
    with room whose voids do not include its suit, filling every cap."""
    n = len(holders)
    for mask in range(1 << n):
        cap = sum(holders[i][0] for i in range(n) if mask >> i & 1)
        need = 0
        for s, k in pool_by_suit.items():
            if not k:
                continue
            outside = [i for i in range(n) if not (mask >> i & 1)
                       and holders[i][0] > 0 and s not in holders[i][1]]
            if not outside:
                need += k
        if need > cap:
            return False
    return True


class Knowledge:
    """What seat X knows at a moment of play (trump open)."""

    def __init__(self, m, X):
        assert m.open and not m.trump_down
        self.X = X
        self.T = m.trump_suit
        tr = m.trumper
        seen = set(m.hand[X])
        known = {s: set() for s in range(4)}
        if m.tc_shown and m.trump_card in m.hand[tr]:
            known[tr].add(m.trump_card)
        if m.caps_seat is not None:
            known[m.caps_seat] |= set(m.hand[m.caps_seat])
        voids = {s: set() for s in range(4)}
        hidden = []
        tricks = [(cards, m.trick_rev[i], True) for i, (_, cards, _) in enumerate(m.tricks)]
        if m.cur:
            tricks.append((m.cur, False, False))
        for cards, rev, done in tricks:
            led = suit(cards[0][1])
            for j, (s, c, down) in enumerate(cards):
                if j and suit(c) != led:
                    voids[s].add(led)
                if not down or s == X or (X == tr and done) or (rev and (s != tr or c == m.trump_card)):
                    seen.add(c)
                else:
                    hidden.append({led, self.T} if done else {led})
        for s in range(4):
            if s != X:
                seen |= known[s]
        self.known = {s: set(known[s]) for s in range(4) if s != X}
        self.pool = set(ALL) - seen
        self.seats = [s for s in range(4) if s != X and s != m.sitting]
        self.holders = [[len(m.hand[s]) - len(known[s]), set(voids[s])] for s in self.seats]
        self.holders += [[1, v] for v in hidden]
        self.voids = voids
        assert sum(h[0] for h in self.holders) == len(self.pool), (
            "knowledge of seat %d does not add up" % X)


def _winner(cards, T):
    led = suit(cards[0][1])
    tr = [x for x in cards if suit(x[1]) == T]
    pool = tr if tr else [x for x in cards if suit(x[1]) == led]
    return max(pool, key=lambda x: strength(x[1]))[0]


_CACHE = {}   # (position, seat, order or None) -> result, shared by the records


def _position(m):
    """What a caps check depends on, as a hashable value."""
    return (tuple(tuple(m.dealt[s]) for s in range(4)), m.trumper, m.trump_card, m.pcc,
            tuple((ld, tuple(cards), w) for ld, cards, w in m.tricks), tuple(m.cur),
            m.caps_seat, tuple(m.caps_order or ()), m.open, m.exhausted)


def caps_certain(m, seat, order):
    key = (_position(m), seat, tuple(order))
    if key not in _CACHE:
        _CACHE[key] = CapsCheck(m, seat).certain(order)
    return _CACHE[key]


def caps_find(m, seat, budget):
    """A certain order, None, or "unknown" (over budget)."""
    key = (_position(m), seat, None)
    if key not in _CACHE:
        try:
            _CACHE[key] = CapsCheck(m, seat, budget=budget).find()
        except OverBudget:
            _CACHE[key] = "unknown"
    return _CACHE[key]


class OverBudget(Exception):
    pass


class CapsCheck:
    """certain(order) and find() for seat X from Knowledge."""

    def __init__(self, m, X, budget=None):
        self.k = Knowledge(m, X)
        self.m = m
        self.X = X
        self.team = team(X)
        self.n = 3 if m.pcc else 4
        self.memo = {}
        self.budget = budget   # positions to visit before giving up (None: no limit)
        self.nodes = 0

    def _bysuit(self, pool):
        d = {s: 0 for s in SUITS}
        for c in pool:
            d[suit(c)] += 1
        return d

    def certain(self, order):
        return self._fail(order) is None

    def _fail(self, order):
        """None if the order is certain, else how many of its cards were
        played (the failing one included) on some losing line."""
        m, k = self.m, self.k
        mine = m.mycards(self.X)
        if sorted(order) != sorted(mine) or len(set(order)) != len(order):
            return 0
        holders = tuple((h[0], frozenset(h[1])) for h in k.holders)
        known = tuple(frozenset(k.known[s]) for s in k.seats)
        exh = m.exhausted if self.X == m.trumper else False
        cur = tuple((s, c) for s, c, _ in m.cur)
        leader = m.cur[0][0] if m.cur else m.turn
        r = self._go(tuple(order), frozenset(k.pool), holders, known, cur, leader, exh,
                     len(m.tricks))
        return None if r is None else len(order) - r

    def _go(self, order, pool, holders, known, cur, leader, exh, ntricks):
        # None: every line wins; else the number of order cards left after
        # the failing one on a losing line.
        key = self._key(order, pool, holders, known, cur, leader, exh, ntricks)
        if key in self.memo:
            return self.memo[key]
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise OverBudget()
        if len(self.memo) > 3000000:
            self.memo.clear()
        r = self._go1(order, pool, holders, known, cur, leader, exh, ntricks)
        self.memo[key] = r
        return r

    def _key(self, order, pool, holders, known, cur, leader, exh, ntricks):
        """The position up to renaming: only the rank order of the cards still
        in play matters, so each suit is written high to low as who holds
        each card still unplayed (or played to this trick)."""
        where = {}
        for j, c in enumerate(order):
            where[c] = ("X", j)
        for i, ks in enumerate(known):
            for c in ks:
                where[c] = ("K", i)
        for s, c in cur:
            where[c] = ("C", s)
        for c in pool:
            where[c] = "P"
        suits = tuple(tuple(where[r + su] for r in reversed(RANKS) if r + su in where)
                      for su in SUITS)
        return (suits, holders, tuple(s for s, _ in cur), leader, exh, ntricks)

    def _next(self, s):
        t = (s + 1) % 4
        if t == self.m.sitting:
            t = (t + 1) % 4
        return t

    def _classes(self, pool, order, known, cur):
        """Pool cards that are interchangeable for the last player of a trick
        (same suit, no unplayed card outside the pool and no card of this
        trick between them in rank): one representative each. What is left
        of such a run afterwards is the same up to an order-preserving
        renaming, whichever card was taken."""
        live = set(order) | set(c for _, c in cur)
        for ks in known:
            live |= ks
        reps = set()
        for su in SUITS:
            run = False
            for r in reversed(RANKS):
                c = r + su
                if c in pool:
                    if not run:
                        reps.add(c)
                        run = True
                elif c in live:
                    run = False
        return reps

    def _go1(self, order, pool, holders, known, cur, leader, exh, ntricks):
        if ntricks == 8:
            return None
        T = self.k.T
        if len(cur) == self.n:
            w = _winner(cur, T)
            if team(w) != self.team:
                return len(order)
            return self._go(order, pool, holders, known, (), w, exh, ntricks + 1)
        s = leader if not cur else self._next(cur[-1][0])
        led = suit(cur[0][1]) if cur else None
        if s == self.X:
            c = order[0]
            rest = order[1:]
            if led is None:
                if exh and suit(c) != T and any(suit(x) == T for x in order):
                    return len(rest)
                if self.X == self.m.trumper and suit(c) == T and not exh:
                    others = any(suit(x) == T for x in pool) or any(suit(x) == T for ks in known for x in ks)
                    if not others:
                        exh = True
            elif suit(c) != led and any(suit(x) == led for x in order):
                return len(rest)
            if exh and not any(suit(x) == T for x in rest):
                exh = False
            return self._go(rest, pool, holders, known, cur + ((s, c),), leader, exh, ntricks)
        i = self.k.seats.index(s)
        cap, voids = holders[i]
        kn = known[i]
        has_known_led = led is not None and any(suit(x) == led for x in kn)
        offv = voids | {led} if led is not None else voids
        # the last card of a trick: interchangeable pool cards are one choice
        # (earlier in a trick they are not: later cards compare with them)
        reps = self._classes(pool, order, known, cur) if len(cur) == self.n - 1 else pool
        opts = []   # (card, from_pool, new_voids)
        for c in sorted(kn):
            if led is None or suit(c) == led:
                opts.append((c, False, voids))
            elif not has_known_led:
                opts.append((c, False, offv))
        if cap > 0:
            for c in sorted(pool):
                if c not in reps or suit(c) in voids:
                    continue
                if led is None or suit(c) == led:
                    opts.append((c, True, voids))
                elif not has_known_led:
                    opts.append((c, True, offv))
        for c, fp, nv in opts:
            nh = list(holders)
            nk = list(known)
            np_ = pool
            if fp:
                np_ = pool - {c}
                nh[i] = (cap - 1, frozenset(nv))
            else:
                nk[i] = kn - {c}
                nh[i] = (cap, frozenset(nv))
            if not _feasible(self._bysuit(np_), [list(h) for h in nh]):
                continue
            r = self._go(order, np_, tuple(nh), tuple(nk), cur + ((s, c),), leader, exh, ntricks)
            if r is not None:
                return r
        return None

    def find(self):
        """Some certain order, or None; raises OverBudget."""
        import itertools
        mine = sorted(self.m.mycards(self.X), key=lambda c: (suit(c), -strength(c)))
        # the seat's own interchangeable cards (same suit, nothing unseen or
        # held elsewhere between them) are tried in one order only
        k = self.k
        live = set(k.pool) | set(c for _, c, _ in self.m.cur)
        for ks in k.known.values():
            live |= ks
        twin = {}   # card -> the next higher card of the seat it is interchangeable with
        for a in mine:
            for b in mine:
                if a != b and suit(a) == suit(b) and strength(b) > strength(a):
                    between = [r + suit(a) for r in RANKS[strength(a) + 1:strength(b)]]
                    if not any(x in live or x in mine for x in between):
                        twin[a] = b
        failed = set()
        for p in itertools.permutations(mine):
            if any(p.index(twin[a]) > p.index(a) for a in twin):
                continue
            if any(p[:j] in failed for j in range(1, len(p) + 1)):
                continue
            f = self._fail(list(p))
            if f is None:
                return list(p)
            failed.add(p[:max(f, 1)])
        return None
