#!/usr/bin/env python3
"""gen_records.py: writes the 304 rule records (NAME.json and NAME.expect)
in this directory. Each deck is laid out by hand below, seat by seat ("first
four | last four"); gen304.Record turns it into the deck for the dealer,
checks each action against a small model of the rules, and checks the points
and tokens written here by hand. Run: python3 tests/records/304/gen_records.py

Card points: J 30, 9 20, A 11, T 10, K 3, Q 2, 8 0, 7 0 (76 a suit, 304 in
all); order in a suit J 9 A T K Q 8 7. Seats 0..3 in play order, teams
{0,2} and {1,3}; dealer+1 gets the first batch and speaks and leads first.

The caps records take a few minutes (gen304.CapsCheck is an exhaustive
search); name records on the command line to write only those.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen304 import Record  # noqa: E402

OUT = os.path.dirname(os.path.abspath(__file__))
RECORDS = []


def record(fn):
    RECORDS.append(fn)
    return fn


# A plain deal: two cards of each suit to every seat.
#   seat 1: 56 points, seat 2: 73, seat 3: 75, seat 0: 100.
G0 = {
    1: "JS TH AD KC | 8S 7H QD 8C",
    2: "9S JH TD AC | 7S QH 8D 7C",
    3: "AS 9H JD TC | QS 8H 7D QC",
    0: "TS AH 9D JC | KS KH KD 9C",
}

# Team 0 (seats 0 and 2) holds every J, 9, A and T (284 points);
# team 1 holds the kings, queens, eights and sevens (20 points).
STRONG0 = {
    0: "JS 9S JH 9H | JD 9D JC 9C",
    2: "AS TS AH TH | AD TD AC TC",
    1: "KS QS KH QH | KD QD KC QC",
    3: "8S 7S 8H 7H | 8D 7D 8C 7C",
}
# The same with the teams swapped.
STRONG1 = {
    1: "JS 9S JH 9H | JD 9D JC 9C",
    3: "AS TS AH TH | AD TD AC TC",
    0: "KS QS KH QH | KD QD KC QC",
    2: "8S 7S 8H 7H | 8D 7D 8C 7C",
}


def pass8(r, first):
    for k in range(4):
        r.pas((first + k) % 4)


# ---------------------------------------------------------------- bidding

@record
def bid_example1():
    r = Record("bid_example1", dealer=0, note="""
001's first bidding example. South (seat 0) deals; East 1, North 2, West 3.
East 160, North 170, West passes, South may not bid under 200 over his
partner North (tries 180: bid_over_partner) and passes; East may not bid
under 200 on his second turn (tries 180: bid_second_turn) and bids 200;
North, West and South pass: East is trumper at 200. No seat sees its last
four cards before the trump card is chosen, and every seat sees them after.""")
    r.deal(G0)
    r.bid(1, 160)
    r.bid(2, 170)
    r.pas(3)
    r.bid(0, 180, err="bid_over_partner")
    r.pas(0)
    r.bid(1, 180, err="bid_second_turn")
    r.bid(1, 200)
    r.pas(2, 3, 0)
    t = r.trump(1, "KC")
    for s, c in ((1, "8S"), (2, "7S"), (3, "QS"), (0, "KS")):
        r.noview(s, c, r.d, 0, t - 1)
        r.hasview(s, c, r.d, t)
    pass8(r, 1)
    r.auto()
    r.end(points=[162, 142], made=False, tokens=[14, 8], trumper=1, bid=200)
    return r


@record
def bid_example2():
    r = Record("bid_example2", dealer=0, note="""
001's second bidding example. East (seat 0) deals; North 1, West 2, South 3.
North passes; West asks East, who bids 160 (East may not ask back:
ask_answering); South 170; East passes (180 refused: bid_second_turn, East
spoke when answering); North passes; West (180 refused: the ask was West's
turn) asks East again; East bids 200 (190 refused: an answering partner is
held to his own history); South passes; East's own turn is skipped since he
holds the highest bid (his pass: not_your_turn); North and West pass.
East is trumper at 200.""")
    r.deal(G0)
    r.pas(1)
    r.ask(2)
    r.ask(0, err="ask_answering")
    r.bid(0, 160)
    r.bid(3, 170)
    r.bid(0, 180, err="bid_second_turn")
    r.pas(0)
    r.pas(1)
    r.bid(2, 180, err="bid_second_turn")
    r.ask(2)
    r.bid(0, 190, err="bid_second_turn")
    r.bid(0, 200)
    r.pas(3)
    r.pas(0, err="not_your_turn")
    r.pas(1)
    r.pas(2)
    r.trump(0, "9D")
    pass8(r, 0)
    r.auto()
    r.end(points=[179, 125], made=False, tokens=[8, 14], trumper=0, bid=200)
    return r


@record
def bid_limits():
    r = Record("bid_limits", dealer=0, note="""
Four-card bidding limits: under 160 (bid_too_low), not a multiple of 10
(bid_not_multiple, 165 and, without fives, 205), over 300 (bid_too_high), pcc
with four cards (pcc_four), out of turn (not_your_turn), playing while
bidding (wrong_phase), not higher (bid_not_higher, an equal bid), asking a
partner who holds the highest bid (ask_partner_high), under 200 over partner
(bid_over_partner), under 200 on a second turn (bid_second_turn), 300 on a
second turn accepted. 300 fails: 4 tokens.""")
    r.deal(G0)
    r.bid(1, 150, err="bid_too_low")
    r.bid(1, 165, err="bid_not_multiple")
    r.bid(1, 310, err="bid_too_high")
    r.bid(1, "pcc", err="pcc_four")
    r.bid(2, 160, err="not_your_turn")
    r.play(1, "JS", err="wrong_phase")
    r.bid(1, 160)
    r.bid(2, 160, err="bid_not_higher")
    r.bid(2, 205, err="bid_not_multiple")
    r.pas(2)
    r.ask(3, err="ask_partner_high")
    r.bid(3, 170, err="bid_over_partner")
    r.pas(3)
    r.bid(0, 170)
    r.bid(1, 190, err="bid_second_turn")
    r.bid(1, 300)
    r.pas(2, 3, 0)
    r.trump(1, "AD")
    pass8(r, 1)
    r.auto()
    r.end(points=[162, 142], made=False, tokens=[15, 7], trumper=1, bid=300)
    return r


@record
def passed_out():
    r = Record("passed_out", dealer=0, note="""
All four pass: the deal is passed out, no score, the next seat deals. Deal 1
(dealer 1): seat 1 may not speak first; seat 2 asks partner 0, who passes,
and with 3, 0 and 1 passing that is four passing turns: passed out again.
Deal 2 (dealer 2): seat 3 speaks first and wins at 160; deal 3 (dealer 3).""")
    r.deal(G0)
    r.pas(1, 2, 3, 0)
    r.end("passed_out", tokens=[11, 11])
    r.deal(G0)
    r.pas(1, err="not_your_turn")
    r.ask(2)
    r.pas(0)
    r.pas(3, 0, 1)
    r.end("passed_out", tokens=[11, 11])
    r.deal(G0)
    r.bid(2, 160, err="not_your_turn")
    r.bid(3, 160)
    r.pas(0, 1, 2)
    r.trump(3, "JD")
    pass8(r, 3)
    r.auto()
    r.end(points=[183, 121], made=False, tokens=[13, 9], trumper=3, bid=160)
    r.deal(G0)
    r.pas(3, err="not_your_turn")
    r.pas(0, 1, 2, 3)
    r.end("passed_out", tokens=[13, 9])
    return r


@record
def reject_under15():
    r = Record("reject_under15", dealer=0, note="""
Dealer+1 holding under 15 points (AH KD 8C 7S = 14) rejects before any bid
(a refused out-of-turn bid by seat 2 first changes nothing): the same dealer
redeals. In the redeal seat 2 still may not speak first. Then
after a passed-out deal (dealer 1), seat 2 is dealer+1 and rejects a hand
worth 0 points.""")
    r.deal({1: "AH KD 8C 7S | JS 9S JH 9H", 2: "AS TS TH KH | JD 9D JC 9C",
            3: "KS QS QH 8H | AD TD AC TC", 0: "8S 7H QD 8D | 7D KC QC 7C"})
    r.bid(2, 160, err="not_your_turn")
    r.act(1, "redeal")
    r.end("redeal", tokens=[11, 11])
    r.deal(G0)
    r.bid(2, 160, err="not_your_turn")
    r.pas(1, 2, 3, 0)
    r.end("passed_out", tokens=[11, 11])
    r.deal({2: "8S 7S 8H 7H | JS 9S JH 9H", 3: "AS TS AH TH | JD 9D JC 9C",
            0: "KS QS KH QH | AD TD AC TC", 1: "8D 7D KD QD | 8C 7C KC QC"})
    r.act(2, "redeal")
    r.end("redeal", tokens=[11, 11])
    r.deal(G0)
    r.pas(1, err="not_your_turn")
    r.pas(2, 3, 0, 1)
    r.end("passed_out", tokens=[11, 11])
    return r


@record
def reject_refused():
    r = Record("reject_refused", dealer=0, note="""
Refused rejections. Deal 0: seat 2 may not reject (reject_not_first) though
its hand is worth 0; dealer+1 holds exactly 15 (TH KD QC 7S), not under 15
(reject_points). Deal 1 (dealer 1): dealer+1 = seat 2 holds 5 points but
passes first; at its next turn rejecting is too late (reject_too_late).""")
    r.deal({1: "TH KD QC 7S | JS 9S JH 9H", 2: "7H 8H 7D 8D | JD 9D JC 9C",
            3: "AS TS AH KH | AD TD AC TC", 0: "KS QS QH 8S | QD KC 8C 7C"})
    r.act(2, "redeal", err="reject_not_first")
    r.act(1, "redeal", err="reject_points")
    r.pas(1, 2, 3, 0)
    r.end("passed_out", tokens=[11, 11])
    r.deal({2: "KS QS 8S 7S | JH 9H AH TH", 3: "JS 9S AS TS | KH QH 8H 7H",
            0: "JD 9D AD TD | JC 9C AC TC", 1: "KD QD 8D 7D | KC QC 8C 7C"})
    r.pas(2)
    r.bid(3, 160)
    r.pas(0, 1)
    r.act(2, "redeal", err="reject_too_late")
    r.pas(2)
    r.trump(3, "JS")
    pass8(r, 3)
    r.auto()
    r.end(points=[142, 162], made=True, tokens=[10, 12], trumper=3, bid=160)
    return r


@record
def single_bidding():
    r = Record("single_bidding", dealer=0, rules={"bidding": "single"}, note="""
bidding = single (000): one bid each, except that while nobody has bid 200 a
bid of 200 or more may overbid a partner or be a second bid. Seat 3 may not
bid 170 over partner 1's 160 (single_partner) but may bid 200; seat 0 bids
210; then 200 has been bid, so seat 1 may not bid again (220: single_once,
where pagat style would allow it), nor seat 2 (230), nor seat 3 (240).""")
    r.deal(G0)
    r.bid(1, 160)
    r.pas(2)
    r.bid(3, 170, err="single_partner")
    r.bid(3, 200)
    r.bid(0, 210)
    r.bid(1, 220, err="single_once")
    r.pas(1)
    r.bid(2, 230, err="single_once")
    r.pas(2)
    r.bid(3, 240, err="single_once")
    r.pas(3)
    r.trump(0, "JC")
    pass8(r, 0)
    r.auto()
    r.end(points=[162, 142], made=False, tokens=[8, 14], trumper=0, bid=210)
    return r


@record
def single_second_bid():
    r = Record("single_second_bid", dealer=0, rules={"bidding": "single"}, note="""
bidding = single: while nobody has bid 200, a seat that has bid may bid
again at 200 or more (seat 1: 160 then 200); after that a second bid is
refused even at 200 or more (seat 2, 210: single_once; seat 3, who passed,
210: single_once), and under 200 a second bid is refused too (seat 1, 180,
before its 200: single_once).""")
    r.deal(G0)
    r.bid(1, 160)
    r.bid(2, 170)
    r.pas(3)
    r.pas(0)
    r.bid(1, 180, err="single_once")
    r.bid(1, 200)
    r.bid(2, 210, err="single_once")
    r.pas(2)
    r.bid(3, 210, err="single_once")
    r.pas(3)
    r.pas(0)
    r.trump(1, "TH")
    pass8(r, 1)
    r.auto()
    r.end(points=[149, 155], made=False, tokens=[14, 8], trumper=1, bid=200)
    return r


@record
def fives():
    r = Record("fives", dealer=0, rules={"fives": "on", "caps": "off"}, note="""
fives = on: bids of 200 and over may be multiples of 5 (205, 245; eight-card
255), under 200 still multiples of 10 (185: bid_not_multiple). 245 is in the
200-249 band (win 2 / lose 3), 255 in the 250 band (win 3 / lose 4).""")
    r.deal(G0)
    r.bid(1, 205)
    r.bid(2, 185, err="bid_not_multiple")
    r.pas(2)
    r.bid(3, 245)
    r.pas(0, 1, 2)
    r.trump(3, "JD")
    pass8(r, 3)
    r.auto()
    r.end(points=[183, 121], made=False, tokens=[14, 8], trumper=3, bid=245)
    r.deal(STRONG1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.trump(2, "8S")
    r.pas(2)
    r.bid(3, 255)
    r.pas(0)
    r.bid(1, 265, err="bid8_partner")
    r.pas(1)
    r.trump(3, "AH")
    r.auto()
    r.end(points=[0, 304], made=True, tokens=[11, 11], trumper=3, bid=255)
    return r


# ---------------------------------------------------------------- trump card

@record
def trump_card_choice():
    r = Record("trump_card_choice", dealer=0, note="""
The four-card winner (seat 2) picks the trump card from its first four only:
a card of its last four (not dealt yet) is refused (not_in_hand), a card of
another seat too; no bidding then (wrong_phase). The eight-card round
begins with the trumper (seat 3 first: not_your_turn). Seat 1 leads; it may
not open the game (not_trumper); once a card is played the trumper may not
open either (open_too_late).""")
    r.deal(G0)
    r.pas(1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.bid(2, 170, err="wrong_phase")
    r.trump(2, "7S", err="not_in_hand")
    r.trump(2, "JS", err="not_in_hand")
    r.trump(2, "AC")
    r.pas(3, err="not_your_turn")
    pass8(r, 2)
    r.open(1, err="not_trumper")
    r.play(1, "TH")
    r.open(2, err="open_too_late")
    r.auto()
    r.end(points=[162, 142], made=True, tokens=[12, 10], trumper=2, bid=160)
    return r


@record
def open_game():
    r = Record("open_game", dealer=0, note="""
Open trump game: the trumper (seat 1, dealer+1) opens before the first
lead (the trump card JS is shown; a second open: already_open) and may then
lead a trump to the first trick. All cards are face up: seat 3, void in
spades, plays 9C face up, so seat 0 sees it at once.""")
    r.deal({1: "JS 9S AH KD | 8S TH AD KC", 2: "AS TS JH QD | 7S QH TD 8C",
            3: "9H 8H JD 9D | 7H 7D JC 9C", 0: "KS QS TC AC | KH 8D QC 7C"})
    r.bid(1, 160)
    r.pas(2, 3, 0)
    r.trump(1, "JS")
    pass8(r, 1)
    i = r.open(1)
    r.hasview(2, "JS", r.d, i)
    r.hasview(0, "JS", r.d, i)
    r.open(1, err="already_open")
    r.play(1, "JS")
    r.play(2, "7S")
    i = r.play(3, "9C")
    r.hasview(0, "9C", r.d, i)
    r.hasview(2, "9C", r.d, i)
    r.play(0, "QS")
    r.auto()
    r.end(points=[94, 210], made=True, tokens=[10, 12], trumper=1, bid=160)
    return r


@record
def dealer1_no_trump_lead():
    r = Record("dealer1_no_trump_lead", dealer=0, note="""
A trumper who is dealer+1 may not lead a trump to the first trick of a
closed game: seat 1 (trump card AD) may not lead QD (no_trump_lead_first);
it leads JS and wins; in trick 2 its trump lead QD is accepted.""")
    r.deal(G0)
    r.bid(1, 160)
    r.pas(2, 3, 0)
    r.trump(1, "AD")
    pass8(r, 1)
    r.play(1, "QD", err="no_trump_lead_first")
    r.plays("1:JS 2:9S 3:AS 0:TS")
    r.play(1, "QD")
    r.auto()
    r.end(points=[138, 166], made=True, tokens=[10, 12], trumper=1, bid=160)
    return r


@record
def closed_cut_success():
    r = Record("closed_cut_success", dealer=0, note="""
Closed game, trumper seat 0 (spades, trump card KS). Trick 1: seat 1 leads
AH; seat 2 throws 7C face down; seat 3 cuts with 8S face down; the trumper
may not cut with a trump from hand (9S: cut_with_trump_card) and throws 7D
face down. Inspection: 8S is a trump, so 8S and 7C are shown, the trump card
KS is shown and goes back to seat 0's hand, 7D (the trumper's own) is never
shown; 8S wins. Trump is open: seat 0 follows spades with KS as an ordinary
card, seat 1 (void) plays 7H face up, and seat 0 cuts clubs with 9S.""")
    r.deal({1: "AH TH KH QH | JH 9H 8H 7H", 2: "7C JC 9C AC | TS KD QD 8D",
            3: "8S JS AS 7S | TC KC QC 8C", 0: "KS 7D JD 9D | 9S QS AD TD"})
    r.pas(1, 2, 3)
    r.bid(0, 160)
    r.pas(1, 2, 3)
    r.trump(0, "KS")
    pass8(r, 0)
    d = r.d
    r.play(1, "AH")
    a = r.play(2, "7C")
    r.noview(1, "7C", d, a, a)
    b = r.play(3, "8S")
    r.noview(1, "8S", d, b, b)
    r.play(0, "9S", err="cut_with_trump_card")
    e = r.play(0, "7D")
    for s in (1, 2, 3):
        r.noview(s, "7D")
    r.noview(1, "KS", d, 0, e - 1)
    r.noview(2, "KS", d, 0, e - 1)
    for s in (1, 2):
        r.hasview(s, "8S", d, e)
        r.hasview(s, "KS", d, e)
    r.hasview(1, "7C", d, e)
    r.hasview(3, "7C", d, e)
    # trick 2: trump open
    r.play(3, "7S")
    r.play(0, "KS")
    i = r.play(1, "7H")
    r.hasview(3, "7H", d, i)
    r.play(2, "TS")
    # trick 3: seat 2 won with TS
    r.play(2, "JC")
    r.play(3, "8C")
    r.play(0, "9S")
    r.play(1, "8H")
    r.auto()
    r.end(points=[184, 120], made=True, tokens=[12, 10], trumper=0, bid=160)
    return r


@record
def closed_cut_fail():
    r = Record("closed_cut_fail", dealer=0, note="""
Closed game, trumper seat 2 (spades, trump card 7S). Trick 1: seat 1 leads
AH, the other three are void and throw face down 7D (trumper), 7C, KC; none
is a trump, so AH wins and the three cards stay face down for ever: only
the trumper sees them (and each its own). Trick 2: seat 1 leads TH; the
trumper cuts with the trump card 7S, seat 3 cuts with QS, seat 0 throws QC:
the higher trump QS wins; QS, QC and 7S are shown to all.""")
    r.deal({1: "AH TH KH QH | JH 9H 8H 7H", 2: "7S JD 9D AD | 8S TD 8D 7D",
            3: "QS KS JC 9C | AC TC 7C 8C", 0: "JS 9S AS TS | KD QD KC QC"})
    r.pas(1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.trump(2, "7S")
    pass8(r, 2)
    d = r.d
    r.play(1, "AH")
    r.play(2, "7D")
    r.play(3, "7C")
    e = r.play(0, "KC")
    for s in (0, 1, 3):
        r.noview(s, "7D")
    for s in (0, 1):
        r.noview(s, "7C")
    for s in (1, 3):
        r.noview(s, "KC")
    r.hasview(2, "7C", d, e)
    r.hasview(2, "KC", d, e)
    # trick 2: two cuts
    r.play(1, "TH")
    r.play(2, "7S")
    r.play(3, "QS")
    e = r.play(0, "QC")
    for s in (0, 1):
        r.hasview(s, "QS", d, e)
        r.hasview(s, "7S", d, e)
    r.hasview(1, "QC", d, e)
    r.auto()
    r.end(points=[276, 28], made=True, tokens=[12, 10], trumper=2, bid=160)
    return r


@record
def trumper_must_cut_with_trump_card():
    r = Record("trumper_must_cut_with_trump_card", dealer=0, note="""
While the trump card lies on the table the trumper cuts only with it: seat 2
(spades, trump card 9S), void in hearts, may not cut AH with 8S from hand
(cut_with_trump_card) and cuts with 9S, which wins; trump is open. Later,
with the trump open, the trumper cuts hearts with 8S from hand.""")
    r.deal({1: "AH TH KH 7D | QH JD 9D AD", 2: "9S JC 9C AC | 8S 7S TC KC",
            3: "JH 9H 8H 7H | JS AS TD KD", 0: "TS KS QS QD | 8D 7C QC 8C"})
    r.pas(1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.trump(2, "9S")
    pass8(r, 2)
    d = r.d
    r.play(1, "AH")
    r.play(2, "8S", err="cut_with_trump_card")
    r.play(2, "9S")
    r.play(3, "7H")
    e = r.play(0, "7C")
    r.hasview(1, "9S", d, e)
    r.hasview(1, "7C", d, e)
    r.plays("2:7S 3:JS 0:TS 1:7D")
    r.plays("3:JH 0:8C 1:QH 2:8S")
    r.auto()
    r.end(points=[151, 153], made=False, tokens=[9, 13], trumper=2, bid=160)
    return r


@record
def trump_card_only_to_cut():
    r = Record("trump_card_only_to_cut", dealer=0, note="""
The trump card is played only to cut (or as the last card): seat 2 (trump
card JS, no other spade) may not play it when spades are led
(trump_card_reserved) and throws 7H face down, which stays hidden; leading
it in trick 3 is refused too (trump_card_reserved). Seat 0 then cuts hearts
with 7S face down, the trump is open and JS goes back to seat 2's hand,
which plays it on a spade lead in trick 5.""")
    r.deal({1: "KS QS 8H 7D | AH TH KD QD", 2: "JS JH 9H 7H | JD 9D JC 9C",
            3: "AS TS 8S 8D | AD TD KH QH", 0: "9S 7S AC TC | KC QC 8C 7C"},
           pref={2: "JC JH 9H JD 9D 9C 7H JS"})
    r.pas(1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.trump(2, "JS")
    pass8(r, 2)
    d = r.d
    r.play(1, "KS")
    r.play(2, "JS", err="trump_card_reserved")
    r.play(2, "7H")
    r.play(3, "AS")
    e = r.play(0, "9S")
    for s in (0, 1, 3):
        r.noview(s, "7H")
    r.plays("0:AC 1:8H 2:JC 3:8D")
    r.play(2, "JS", err="trump_card_reserved")
    r.play(2, "JH")
    r.auto()
    r.end(points=[262, 42], made=True, tokens=[12, 10], trumper=2, bid=160)
    return r


def _last_trick(name, pref2, note):
    r = Record(name, dealer=0, note=note)
    r.deal({1: "KS QS 8H 7D | AH TH KD QD", 2: "JS JH 9H 7H | JD 9D JC 9C",
            3: "AS TS 8S 8D | AD TD KH QH", 0: "9S 7S AC TC | KC QC 8C 7C"},
           pref=pref2)
    r.pas(1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.trump(2, "JS")
    pass8(r, 2)
    return r


@record
def last_trick_trump_card_lead():
    r = _last_trick("last_trick_trump_card_lead",
                    {2: "7H JC JH 9H JD 9D 9C JS",
                     3: "AS TS 8S 8D AD TD KH QH", 1: "KS QS 7D 8H AH TH KD QD"}, note="""
Seat 2 keeps the trump card JS to the end without cutting: in the last
trick it is its only card and, leading, it plays it (face up).""")
    d = r.d
    r.auto(tricks=7)
    assert r.m.turn == 2 and not r.m.hand[2], r.m.hand
    i = r.play(2, "JS")
    r.hasview(1, "JS", d, i)
    r.auto()
    r.end(points=[221, 83], made=True, tokens=[12, 10], trumper=2, bid=160)
    return r


@record
def last_trick_trump_card_follow():
    r = Record("last_trick_trump_card_follow", dealer=0, rules={"caps": "off"}, note="""
Seat 2 (trump card JS, no spade in hand) never cuts; when spades are led in
tricks 6 and 7 it throws hearts face down. In the last trick seat 0 leads
TS and JS, seat 2's only card, follows face up: seat 1 sees it as soon as
it is played, before the trick is complete. Team 0 takes every trick
(caps off).""")
    r.deal({2: "JS JH JD JC | 9D 7C 9H 7H", 1: "TH AD TC TD | AC KS 8S AH",
            3: "KH KD KC 8D | 8C QS 7S 8H", 0: "QH QD QC 7D | 9C 9S AS TS"})
    r.pas(1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.trump(2, "JS")
    pass8(r, 2)
    d = r.d
    r.plays("1:TH 2:JH 3:KH 0:QH")
    r.plays("2:JD 3:KD 0:QD 1:AD")
    r.plays("2:JC 3:KC 0:QC 1:TC")
    r.plays("2:9D 3:8D 0:7D 1:TD")
    r.plays("2:7C 3:8C 0:9C 1:AC")
    r.plays("0:9S 1:KS 2:7H 3:QS")
    r.plays("0:AS 1:8S 2:9H 3:7S")
    r.play(0, "TS")
    r.play(1, "AH")
    i = r.play(2, "JS")
    r.hasview(1, "JS", d, i)
    r.hasview(3, "JS", d, i)
    r.play(3, "8H")
    for s in (0, 3):
        r.noview(s, "7H")
        r.noview(s, "9H")
    r.end(points=[304, 0], made=True, tokens=[12, 10], trumper=2, bid=160)
    return r


@record
def last_trick_trump_card_cut():
    r = Record("last_trick_trump_card_cut", dealer=0, rules={"caps": "off"}, note="""
Seat 2 (trump card JS) never cuts before the last trick, where JS is its
only card; seat 0 leads 7H and JS cuts face down (seat 1 does not see it
while the trick is open), then the inspection shows it and it wins. Team 0
takes every trick (caps off). (The view after the last card already
belongs to the next deal, so the reveal itself is not checked.)""")
    r.deal({2: "JS JH JD JC | 9D 7C 9H TS", 1: "TH AD TC TD | AC KS 8S AH",
            3: "KH KD KC 8D | 8C QS 7S 8H", 0: "QH QD QC 7D | 9C 9S AS 7H"})
    r.pas(1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.trump(2, "JS")
    pass8(r, 2)
    d = r.d
    r.plays("1:TH 2:JH 3:KH 0:QH")
    r.plays("2:JD 3:KD 0:QD 1:AD")
    r.plays("2:JC 3:KC 0:QC 1:TC")
    r.plays("2:9D 3:8D 0:7D 1:TD")
    r.plays("2:7C 3:8C 0:9C 1:AC")
    r.plays("0:9S 1:KS 2:TS 3:QS")
    r.plays("0:AS 1:8S 2:9H 3:7S")
    r.play(0, "7H")
    r.play(1, "AH")
    i = r.play(2, "JS")
    r.noview(1, "JS", d, 0, i)
    r.noview(3, "JS", d, 0, i)
    r.play(3, "8H")
    r.end(points=[304, 0], made=True, tokens=[12, 10], trumper=2, bid=160)
    return r


@record
def exhausted_trumps():
    r = Record("exhausted_trumps", dealer=0, note="""
Open game, trumper seat 1 (spades). After two spade leads nobody else holds
a spade. Leading a heart then is allowed (exhausted trumps begins only with a
trump lead). Once it leads AS while holding every trump left, it must go on
leading trumps from hand: 8D is refused (exhausted_trumps), 7S is led; with
no trump left it leads freely.""")
    r.deal({1: "JS 9S AS JH | 7S 8D 7D 7C", 2: "TS 9H 8H JD | 9D AD JC 9C",
            3: "KS 8S AH 7H | TD KD AC TC", 0: "QS TH KH QH | QD KC QC 8C"})
    r.bid(1, 160)
    r.pas(2, 3, 0)
    r.trump(1, "JS")
    pass8(r, 1)
    r.open(1)
    r.plays("1:JS 2:TS 3:KS 0:QS")
    r.plays("1:9S 2:9C 3:8S 0:8C")
    r.plays("1:JH 2:8H 3:7H 0:QH")
    r.plays("1:AS 2:9D 3:TC 0:KC")
    r.play(1, "8D", err="exhausted_trumps")
    r.plays("1:7S 2:JC 3:AC 0:QC")
    r.play(1, "8D")
    r.auto()
    r.end(points=[100, 204], made=True, tokens=[10, 12], trumper=1, bid=160)
    return r


@record
def exhausted_closed():
    r = Record("exhausted_closed", dealer=0, rules={"caps": "off"}, note="""
Exhausted trumps in a closed game: trumper seat 2 (trump card 7S face down)
wins trick 1 with TS, after which nobody else holds a spade. It leads JS, so
it must lead its spades from hand (JH, AH refused: exhausted_trumps) but not
the trump card: with no spade left in hand it may lead freely, and leading
the face-down trump card is refused (trump_card_reserved).""")
    r.deal({2: "7S JS 9S AS | TS JH 9H AH", 1: "KS QH 8H 7H | JD 9D AD TD",
            3: "QS KH TH 7D | 8D JC 9C AC", 0: "8S QD KD 7C | TC KC QC 8C"})
    r.pas(1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.trump(2, "7S")
    pass8(r, 2)
    r.plays("1:KS 2:TS 3:QS 0:8S")
    r.plays("2:JS 3:7D 0:7C 1:7H")
    r.play(2, "JH", err="exhausted_trumps")
    r.plays("2:9S 3:8D 0:8C 1:8H")
    r.play(2, "AH", err="exhausted_trumps")
    r.plays("2:AS 3:KH 0:QD 1:QH")
    r.play(2, "7S", err="trump_card_reserved")
    r.play(2, "JH")
    r.auto()
    r.end(points=[304, 0], made=True, tokens=[12, 10], trumper=2, bid=160)
    return r


@record
def bid250_reveal_after_trick1():
    r = Record("bid250_reveal_after_trick1", dealer=0, note="""
A four-card bid of 250 played closed is closed for the first trick only:
seat 1 does not see the trump card QD before trick 1 ends and sees it
after; QD goes back to seat 2's hand (it follows diamonds with it in trick
4). From trick 2 on cards are face up: seat 3, void in spades in trick 2,
plays 7H face up, seen at once by 0. Team 0 takes 64: 250 fails, 4 tokens.""")
    r.deal({1: "JS 9S AH KD | 8S TH AD KC", 2: "AS TS JH QD | 7S QH TD 8C",
            3: "9H 8H JD 9D | 7H 7D JC 9C", 0: "KS QS TC AC | KH 8D QC 7C"})
    r.pas(1)
    r.bid(2, 250)
    r.pas(3, 0, 1)
    r.trump(2, "QD")
    pass8(r, 2)
    d = r.d
    r.play(1, "AH")
    r.play(2, "JH")
    r.play(3, "9H")
    e = r.play(0, "KH")
    r.noview(1, "QD", d, 0, e - 1)
    r.noview(3, "QD", d, 0, e - 1)
    r.hasview(1, "QD", d, e)
    r.hasview(3, "QD", d, e)
    r.play(2, "AS")
    i = r.play(3, "7H")
    r.hasview(0, "7H", d, i)
    r.hasview(1, "7H", d, i)
    r.plays("0:KS 1:9S")
    r.auto()
    r.end(points=[64, 240], made=False, tokens=[7, 15], trumper=2, bid=250)
    return r


# ---------------------------------------------------------------- eight cards

@record
def eight_card_bid():
    r = Record("eight_card_bid", dealer=0, note="""
Eight-card round, once round from the four-card winner (seat 1, trump card
JS): seat 2 may not ask partner (ask_eight), must bid at least 250
(240: bid_too_low), bids 250; seat 0 may not bid over partner 2 (260:
bid_eight_partner) and passes. Seat 1 takes JS back (and leads it); seat 2
picks a new trump card from its last four (7C). Closed first trick only.""")
    r.deal(G0)
    r.bid(1, 160)
    r.pas(2, 3, 0)
    r.trump(1, "JS")
    r.pas(2, err="not_your_turn")
    r.pas(1)
    r.ask(2, err="ask_eight")
    r.bid(2, 240, err="bid_too_low")
    r.bid(2, 250)
    r.pas(3)
    r.bid(0, 260, err="bid8_partner")
    r.pas(0)
    r.trump(2, "7C")
    d = r.d
    r.play(1, "JS")
    r.play(2, "9S")
    r.play(3, "AS")
    e = r.play(0, "TS")
    r.noview(1, "7C", d, 0, e - 1)
    r.hasview(1, "7C", d, e)
    r.auto()
    r.end(points=[162, 142], made=False, tokens=[7, 15], trumper=2, bid=250)
    return r


@record
def eight_card_same_trumper():
    r = Record("eight_card_same_trumper", dealer=0, note="""
The four-card winner (seat 1, 260, trump card JS) raises in the eight-card
round: 260 is not higher than every bid so far (bid_not_higher), 270 is;
partner 3 may not bid over it (bid8_partner). Seat 1 picks a new trump card
from its last four, QD: diamonds are trump now, so as dealer+1 in a closed
game it may not lead AD (no_trump_lead_first) but may lead JS.""")
    r.deal(G0)
    r.bid(1, 260)
    r.pas(2, 3, 0)
    r.trump(1, "JS")
    r.bid(1, 260, err="bid_not_higher")
    r.bid(1, 270)
    r.pas(2)
    r.bid(3, 280, err="bid8_partner")
    r.pas(3)
    r.pas(0)
    r.trump(1, "QD")
    r.play(1, "AD", err="no_trump_lead_first")
    r.play(1, "JS")
    r.auto()
    r.end(points=[162, 142], made=False, tokens=[15, 7], trumper=1, bid=270)
    return r


PCC_HANDS = {2: "JS 9S AS TS | KS QS JH 9H", 1: "7S AD TD KD | AH TH KH QH",
             3: "8S JD 9D QD | JC 9C AC TC", 0: "8H 7H 8D 7D | KC QC 8C 7C"}


@record
def pcc_made():
    r = Record("pcc_made", dealer=0, note="""
Partner Close Caps by seat 2 in the eight-card round (ends the round at
once); seat 2 picks the trump card from its last four (QS) and leads;
seat 0 sits out (sitting_out) and nobody sees its cards; seat 1 (dealer+1)
does not lead (not_your_turn). Tricks of three. After trick 1 nobody else
holds a spade, yet seat 2 may lead hearts (no exhausted trumps in pcc).
The trump card is shown after trick 1 (the 250 rule). Seat 2 wins all
eight tricks: 4 tokens; seat 0's cards count for team 0.""")
    r.deal(PCC_HANDS)
    r.bid(1, 160)
    r.pas(2, 3, 0)
    r.trump(1, "AD")
    r.pas(1)
    r.bid(2, "pcc")
    r.trump(2, "QS")
    r.play(1, "AH", err="not_your_turn")
    r.play(0, "8H", err="sitting_out")
    d = r.d
    e = r.plays("2:JS 3:8S 1:7S")
    r.noview(1, "QS", d, 0, e - 1)
    r.hasview(1, "QS", d, e)
    r.hasview(3, "QS", d, e)
    r.plays("2:9S 3:JD 1:AD")
    r.plays("2:JH 3:JC 1:AH")
    r.plays("2:9H 3:9D 1:TH")
    r.plays("2:AS 3:9C 1:KH")
    r.plays("2:TS 3:QD 1:QH")
    r.plays("2:KS 3:AC 1:TD")
    r.plays("2:QS 3:TC 1:KD")
    for s in (1, 2, 3):
        for c in ("8H", "7H", "8D", "7D", "KC", "QC", "8C", "7C"):
            r.noview(s, c)
    r.end(points=[304, 0], made=True, tokens=[15, 7], trumper=2, bid="pcc")
    return r


@record
def pcc_failed():
    r = Record("pcc_failed", dealer=0, note="""
Partner Close Caps by seat 2 that loses a trick (8H to seat 1's AH): failed,
5 tokens. The sitting-out partner's cards (worth 25) count for team 0:
248 + 25 = 273.""")
    hands = dict(PCC_HANDS)
    hands[2] = "JS 9S AS TS | KS QS JH 8H"
    hands[0] = "9H 7H 8D 7D | KC QC 8C 7C"
    r.deal(hands)
    r.bid(1, 160)
    r.pas(2, 3, 0)
    r.trump(1, "AD")
    r.pas(1)
    r.bid(2, "pcc")
    r.trump(2, "QS")
    r.plays("2:JS 3:8S 1:7S")
    r.plays("2:9S 3:JD 1:AD")
    r.plays("2:JH 3:JC 1:QH")
    r.plays("2:8H 3:9D 1:AH")
    r.auto()
    r.end(points=[273, 31], made=False, tokens=[6, 16], trumper=2, bid="pcc")
    return r


# ---------------------------------------------------------------- spoilt

SPOILT_HANDS = {1: "AH TH KH QH | AD TD KD QD", 3: "AC TC KC QC | 8H 7H 8D 7D",
                2: "JS 9S AS TS | JH 9H JD 9D", 0: "KS QS 8S 7S | JC 9C 8C 7C"}


@record
def spoilt_right():
    r = Record("spoilt_right", dealer=0, note="""
Spoilt trumps: the trumper's opponents (seats 1 and 3) were dealt no spade.
Calling spoilt before play is refused (wrong_phase); seat 3 calls it during
trick 1 out of turn: the deal is void, no score, the same dealer redeals
(seat 1 speaks first again).""")
    r.deal(SPOILT_HANDS)
    r.pas(1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.trump(2, "JS")
    r.pas(2)
    r.spoilt(3, err="wrong_phase")
    r.pas(3, 0, 1)
    r.play(1, "AH")
    r.play(2, "JH")
    r.spoilt(3)
    r.end("spoilt", tokens=[11, 11])
    r.never({"deal": 0, "end": {"outcome": "scored"}})
    r.deal(G0)
    r.pas(2, err="not_your_turn")
    r.pas(1, 2, 3, 0)
    r.end("passed_out", tokens=[11, 11])
    return r


@record
def spoilt_final_suit():
    r = Record("spoilt_final_suit", dealer=0, note="""
Spoilt is judged on the final trump suit: the four-card trump is hearts
(seat 1, AH), which seat 2 holds; seat 2 then wins the eight-card round and
makes spades trump, of which its opponents 1 and 3 were dealt none. Seat 1's
spoilt call is right: no score, same dealer.""")
    r.deal(SPOILT_HANDS)
    r.bid(1, 160)
    r.pas(2, 3, 0)
    r.trump(1, "AH")
    r.pas(1)
    r.bid(2, 250)
    r.pas(3, 0)
    r.trump(2, "JS")
    r.play(1, "TH")
    r.spoilt(1)
    r.end("spoilt", tokens=[11, 11])
    r.never({"deal": 0, "end": {"outcome": "scored"}})
    r.deal(G0)
    r.pas(2, err="not_your_turn")
    r.pas(1, 2, 3, 0)
    r.end("passed_out", tokens=[11, 11])
    return r


@record
def spoilt_dealt():
    r = Record("spoilt_dealt", dealer=0, note="""
Spoilt is judged on the cards dealt: seat 1 was dealt one spade (7S) and
plays it in trick 1, after which neither opponent holds a trump; seat 3's
spoilt call in trick 2 is still wrong: the trumper's team gets 1 + 2 tokens.""")
    r.deal({1: "AH TH KH 7S | AD TD KD QD", 3: "AC TC KC QC | 8H 7H 8D 7D",
            2: "JS 9S AS TS | JH 9H JD 9D", 0: "KS QS 8S QH | JC 9C 8C 7C"})
    r.pas(1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.trump(2, "JS")
    pass8(r, 2)
    r.plays("1:7S 2:9S 3:7D 0:8S")
    r.play(2, "JH")
    r.spoilt(3)
    r.end_wrong_spoilt(tokens=[14, 8])
    r.deal(G0)
    r.pas(1, err="not_your_turn")
    r.pas(2, 3, 0, 1)
    r.end("passed_out", tokens=[14, 8])
    return r


@record
def spoilt_last_trick():
    r = Record("spoilt_last_trick", dealer=0, note="""
Spoilt may be called until the last card of the last trick: seat 1 calls it
(rightly) in trick 8 with three cards played.""")
    r.deal(SPOILT_HANDS)
    r.pas(1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.trump(2, "JS")
    pass8(r, 2)
    r.auto(tricks=7)
    r.cards(3)
    r.spoilt(1)
    r.end("spoilt", tokens=[11, 11])
    r.never({"deal": 0, "end": {"outcome": "scored"}})
    return r


@record
def spoilt_by_trumper():
    r = Record("spoilt_by_trumper", dealer=0, note="""
RULES.md's corner: the trumper (seat 1) is dealer+1 in a closed game and
holds nothing but spades (all eight trumps are its own), so it cannot lead;
it calls spoilt (right): the same dealer redeals.""")
    r.deal({1: "JS 9S AS TS | KS QS 8S 7S", 2: "JH 9H AH TH | JD 9D AD TD",
            3: "KH QH 8H 7H | KD QD 8D 7D", 0: "JC 9C AC TC | KC QC 8C 7C"})
    r.bid(1, 160)
    r.pas(2, 3, 0)
    r.trump(1, "JS")
    pass8(r, 1)
    r.spoilt(1)
    r.end("spoilt", tokens=[11, 11])
    r.deal(G0)
    r.pas(2, err="not_your_turn")
    r.pas(1, 2, 3, 0)
    r.end("passed_out", tokens=[11, 11])
    return r


@record
def spoilt_by_trumper_caps_off():
    r = Record("spoilt_by_trumper_caps_off", dealer=0, rules={"caps": "off"}, note="""
spoilt_by_trumper with caps off: the trumper (seat 1, dealer+1, closed game,
nothing but spades) calls spoilt (right): the same dealer redeals.""")
    r.deal({1: "JS 9S AS TS | KS QS 8S 7S", 2: "JH 9H AH TH | JD 9D AD TD",
            3: "KH QH 8H 7H | KD QD 8D 7D", 0: "JC 9C AC TC | KC QC 8C 7C"})
    r.bid(1, 160)
    r.pas(2, 3, 0)
    r.trump(1, "JS")
    pass8(r, 1)
    r.spoilt(1)
    r.end("spoilt", tokens=[11, 11])
    r.deal(G0)
    r.pas(2, err="not_your_turn")
    r.pas(1, 2, 3, 0)
    r.end("passed_out", tokens=[11, 11])
    return r


@record
def spoilt_by_partner():
    r = Record("spoilt_by_partner", dealer=0, note="""
The trumper's own team may call spoilt too: seat 0, partner of the trumper
(seat 2, spades), calls it rightly in trick 2 (opponents 1 and 3 were dealt
no spade): no score, same dealer.""")
    r.deal(SPOILT_HANDS)
    r.pas(1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.trump(2, "JS")
    pass8(r, 2)
    r.plays("1:AH 2:JH 3:8H 0:JC")
    r.play(2, "9H")
    r.spoilt(0)
    r.end("spoilt", tokens=[11, 11])
    r.deal(G0)
    r.pas(2, err="not_your_turn")
    r.pas(1)
    return r


@record
def only_trumps_open():
    r = Record("only_trumps_open", dealer=0, rules={"caps": "off"}, note="""
RULES.md's corner: the trumper (seat 1) is dealer+1 in a closed game and
holds nothing but spades; instead of calling spoilt it opens the game and
leads a spade. Exhausted trumps then keeps it leading spades; it takes
every trick (caps off) and 160 is made: 1 token.""")
    r.deal({1: "JS 9S AS TS | KS QS 8S 7S", 2: "JH 9H AH TH | JD 9D AD TD",
            3: "KH QH 8H 7H | KD QD 8D 7D", 0: "JC 9C AC TC | KC QC 8C 7C"})
    r.bid(1, 160)
    r.pas(2, 3, 0)
    r.trump(1, "JS")
    pass8(r, 1)
    r.open(1)
    r.play(1, "JS")
    r.auto()
    r.end(points=[0, 304], made=True, tokens=[10, 12], trumper=1, bid=160)
    return r


@record
def spoilt_wrong():
    r = Record("spoilt_wrong", dealer=0, note="""
A wrong spoilt call (the trumper's opponents hold spades) by an opponent,
seat 2: a rule violation; the trumper's team gets the deal's winnings (160:
1 token) plus 2, so 3 tokens; the next seat deals.""")
    r.deal(G0)
    r.bid(1, 160)
    r.pas(2, 3, 0)
    r.trump(1, "JS")
    pass8(r, 1)
    r.play(1, "TH")
    r.spoilt(2)
    r.end_wrong_spoilt(tokens=[8, 14])
    r.never({"deal": 0, "end": {"outcome": "redeal"}})
    r.deal(G0)
    r.pas(1, err="not_your_turn")
    r.pas(2, 3, 0, 1)
    r.end("passed_out", tokens=[8, 14])
    return r


@record
def spoilt_wrong_trumper_team():
    r = Record("spoilt_wrong_trumper_team", dealer=0, note="""
A wrong spoilt call by the trumper's own partner (seat 3; trumper seat 1 at
200): the opponents get the deal's winnings as if the bid had failed (3)
plus 2, so 5 tokens; the next seat deals.""")
    r.deal(G0)
    r.bid(1, 200)
    r.pas(2, 3, 0)
    r.trump(1, "JS")
    pass8(r, 1)
    r.play(1, "TH")
    r.play(2, "JH")
    r.spoilt(3)
    r.end_wrong_spoilt(tokens=[16, 6])
    r.deal(G0)
    r.pas(1, err="not_your_turn")
    r.pas(2, 3, 0, 1)
    r.end("passed_out", tokens=[16, 6])
    return r


# ---------------------------------------------------------------- play basics

@record
def follow_suit():
    r = Record("follow_suit", dealer=0, note="""
Play basics: seat 1 (dealer+1) leads; others may not play out of turn
(not_your_turn); a card not held is refused (not_in_hand); no bidding in
play (wrong_phase); seat 2 holding hearts must follow hearts (follow_suit).""")
    r.deal(G0)
    r.pas(1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.trump(2, "AC")
    pass8(r, 2)
    r.play(2, "JH", err="not_your_turn")
    r.play(1, "9S", err="not_in_hand")
    r.bid(1, 170, err="wrong_phase")
    r.play(1, "TH")
    r.play(2, "9S", err="follow_suit")
    r.play(2, "JH")
    r.auto()
    r.end(points=[162, 142], made=True, tokens=[12, 10], trumper=2, bid=160)
    return r


# ---------------------------------------------------------------- scoring

def _bid_once(r, seat, value, card):
    """Seat bids value, everyone else passes as the bidding comes round."""
    first = (r.m.dealer + 1) % 4
    s = first
    while s != seat:
        r.pas(s)
        s = (s + 1) % 4
    r.bid(seat, value)
    for k in range(1, 4):
        r.pas((seat + k) % 4)
    r.trump(seat, card)
    pass8(r, seat)


@record
def score_under200():
    r = Record("score_under200", dealer=0, rules={"caps": "off"}, note="""
Bids under 200 win 1 token and lose 2. Deal 0: seat 0 (strong team) makes
160. Deal 1 (dealer 1, seat 1 may not open the bidding): seat 3 (weak team)
fails 190.""")
    r.deal(STRONG0)
    _bid_once(r, 0, 160, "JS")
    r.auto()
    r.end(points=[304, 0], made=True, tokens=[12, 10], trumper=0, bid=160)
    r.deal(STRONG0)
    r.bid(1, 160, err="not_your_turn")
    _bid_once(r, 3, 190, "8S")
    r.auto()
    r.end(points=[272, 32], made=False, tokens=[14, 8], trumper=3, bid=190)
    return r


@record
def score_200_249():
    r = Record("score_200_249", dealer=0, rules={"caps": "off"}, note="""
Bids of 200 to 249 win 2 tokens and lose 3: seat 2 makes 200, then seat 1
fails 240.""")
    r.deal(STRONG0)
    _bid_once(r, 2, 200, "AS")
    r.auto()
    r.end(points=[304, 0], made=True, tokens=[13, 9], trumper=2, bid=200)
    r.deal(STRONG0)
    _bid_once(r, 3, 240, "8H")
    r.auto()
    r.end(points=[272, 32], made=False, tokens=[16, 6], trumper=3, bid=240)
    return r


@record
def score_250plus():
    r = Record("score_250plus", dealer=0, rules={"caps": "off"}, note="""
Bids of 250 and over win 3 tokens and lose 4: seat 1 makes a four-card 250
with the strong hand, then seat 3 fails 290.""")
    r.deal(STRONG1)
    _bid_once(r, 1, 250, "JS")
    r.auto()
    r.end(points=[0, 304], made=True, tokens=[8, 14], trumper=1, bid=250)
    r.deal(STRONG0)
    _bid_once(r, 3, 290, "7S")
    r.auto()
    r.end(points=[304, 0], made=False, tokens=[12, 10], trumper=3, bid=290)
    return r


@record
def made_exact():
    r = Record("made_exact", dealer=0, note="""
A bid is made when the team's points reach it exactly: seat 2 bids 170
(trump card TD) and team 0 takes 5+41+30+5+43+46 = 170. In trick 2 a
diamond (trump, unknown to the others) is led and seat 2, holding no
diamond but the trump card, throws QH face down; in trick 7 it cuts with TD.""")
    r.deal(G0)
    r.pas(1)
    r.bid(2, 170)
    r.pas(3, 0, 1)
    r.trump(2, "TD")
    pass8(r, 2)
    r.plays("1:QD 2:8D 3:7D 0:KD")
    r.play(0, "9D")
    r.play(1, "AD")
    r.play(2, "TD", err="trump_card_reserved")
    r.plays("2:QH 3:JD")
    r.plays("3:8H 0:AH 1:7H 2:JH")
    r.plays("2:7C 3:TC 0:9C 1:8C")
    r.plays("0:KS 1:8S 2:7S 3:QS")
    r.plays("0:TS 1:JS 2:9S 3:AS")
    r.plays("1:TH 2:TD 3:9H 0:KH")
    r.plays("2:AC 3:QC 0:JC 1:KC")
    r.end(points=[170, 134], made=True, tokens=[12, 10], trumper=2, bid=170)
    return r


@record
def bank_scoring():
    r = Record("bank_scoring", dealer=0, rules={"scoring": "bank", "caps": "off"}, note="""
scoring = bank: the losing side pays into a bank and the winners get
nothing. Deal 0: seat 0 makes 160, team 1 pays 1: 11/10. Deal 1: seat 3
fails 200, team 1 pays 3: 11/7.""")
    r.deal(STRONG0)
    _bid_once(r, 0, 160, "JS")
    r.auto()
    r.end(points=[304, 0], made=True, tokens=[11, 10], trumper=0, bid=160)
    r.deal(STRONG0)
    _bid_once(r, 3, 200, "8S")
    r.auto()
    r.end(points=[272, 32], made=False, tokens=[11, 7], trumper=3, bid=200)
    return r


@record
def bank_match_end():
    r = Record("bank_match_end", dealer=0, rules={"scoring": "bank"}, note="""
scoring = bank: team 1 fails pcc twice (pays 5, 5 into the bank) and then
a 250 (owes 4, has 1: pays 1): team 1 has no tokens and loses; team 0 still
has 11.""")
    # deal 0, dealer 0: seat 3 (weak) bids pcc in the eight-card round
    r.deal(STRONG0)
    r.bid(1, 160)
    r.pas(2, 3, 0)
    r.trump(1, "KS")
    r.pas(1, 2)
    r.bid(3, "pcc")
    r.trump(3, "8S")
    r.auto()
    r.end(points=[284, 20], made=False, tokens=[11, 6], trumper=3, bid="pcc")
    # deal 1, dealer 1: seat 1 bids pcc
    r.deal(STRONG0)
    r.pas(2)
    r.bid(3, 160)
    r.pas(0, 1, 2)
    r.trump(3, "8S")
    r.pas(3, 0)
    r.bid(1, "pcc")
    r.trump(1, "KS")
    r.auto()
    r.end(points=[304, 0], made=False, tokens=[11, 1], trumper=1, bid="pcc")
    # deal 2, dealer 2: seat 3 fails 250
    r.deal(STRONG0)
    _bid_once(r, 3, 250, "8S")
    r.auto()
    r.end(points=[304, 0], made=False, tokens=[11, 0], trumper=3, bid=250)
    return r


@record
def match_end():
    r = Record("match_end", dealer=0, note="""
The match ends when a team has no tokens: team 0 (weak hands) fails 250
twice (4 + 4) and then 200 (3): 11 - 11 = 0, team 1 wins with 22.""")
    r.deal(STRONG1)
    _bid_once(r, 2, 250, "8S")
    r.auto()
    r.end(points=[0, 304], made=False, tokens=[7, 15], trumper=2, bid=250)
    r.deal(STRONG1)
    _bid_once(r, 2, 250, "8H")
    r.auto()
    r.end(points=[0, 304], made=False, tokens=[3, 19], trumper=2, bid=250)
    r.deal(STRONG1)
    _bid_once(r, 0, 200, "KS")
    r.auto()
    r.end(points=[33, 271], made=False, tokens=[0, 22], trumper=0, bid=200)
    return r


@record
def token_cap():
    r = Record("token_cap", dealer=0, rules={"caps": "off"}, note="""
A team never pays more than it has: team 1 fails pcc twice (5 + 5: 21/1),
then team 0 makes 250 (3 owed, team 1 pays its last 1): 22/0, team 0 wins.
In deal 0 the four-card winner (seat 3) bids pcc first in the eight-card
round, which ends it at once, and picks its old trump card 8S again.""")
    r.deal(STRONG0)
    r.pas(1, 2)
    r.bid(3, 160)
    r.pas(0, 1, 2)
    r.trump(3, "8S")
    r.bid(3, "pcc")
    r.trump(3, "8S")
    r.auto()
    r.end(points=[284, 20], made=False, tokens=[16, 6], trumper=3, bid="pcc")
    r.deal(STRONG0)
    r.pas(2)
    r.bid(3, 160)
    r.pas(0, 1, 2)
    r.trump(3, "8S")
    r.pas(3, 0)
    r.bid(1, "pcc")
    r.trump(1, "KS")
    r.auto()
    r.end(points=[304, 0], made=False, tokens=[21, 1], trumper=1, bid="pcc")
    r.deal(STRONG0)
    _bid_once(r, 0, 250, "JS")
    r.auto()
    r.end(points=[304, 0], made=True, tokens=[22, 0], trumper=0, bid=250)
    return r


# ---------------------------------------------------------------- caps
#
# Caps (000 4.3, 001 "Caps", RULES.md): winning all eight tricks, called by
# naming the order of one's remaining cards at the first moment it is certain
# from what the caller knows, whatever legal cards the other three play (the
# partner included). Grace (strict, the default): until the end of the trick
# in which it became certain for any player of the team, or after its last
# card but before the next lead. Correct: the bid's payoff, +1 if called
# before the first card of the seventh trick. Early or late: the caller's
# team pays 2 and gets nothing for the bid. A trick lost after the call (or an
# order that cannot be played): pays 5. Each record says by hand when caps
# became certain and why; gen304.CapsCheck (an exhaustive search of the
# caller's view, trump open) checks those statements before anything is
# written, and the model tracks after every card when caps first became
# certain for a player of the trumper's team.

# 001's worked example. Clubs trump; the trumper, seat 2, holds
# JC 9C KC 8C JH 9H 8H 7H and cuts the first lead (a spade) with the trump
# card 8C; then leads JC and 9C, on which the other four trumps (AC TC QC
# 7C) fall with one diamond (8D) and one heart (QH) from partner seat 0;
# then JH: the right-hand opponent (seat 3) plays TH, the partner (seat 0)
# KH, and the left-hand opponent (seat 1) AH.
#   Seat 1 (dealer+1) leads AS in a closed game; seat 2 has no spade and cuts
#   with the trump card face down; the inspection finds a trump, so the trump
#   is open from trick 2 on and everyone saw 8C.
#   Before the JH trick three hearts are out (AH TH KH): all three may lie in
#   one hand, which then still holds one over the 8H after JH and 9H are
#   played: not certain. After TH (seat 3) two are out (AH KH), both may be
#   seat 3's: not certain. After the partner's KH only AH is out: whoever
#   holds it plays it under JH or 9H, and no trump is left out (KC is the
#   last): certain (order 9H 8H 7H KC). The partner (spades and diamonds
#   besides its hearts) is never certain. Bid 200 (payoff 2, charge 3).
CAPS001 = {1: "AS KS QC 7C | AH JD 9D TD", 2: "8C JH 9H 8H | JC 9C KC 7H",
           3: "AC TC TH JS | 9S TS AD KD", 0: "KH QH QS 8S | 7S QD 8D 7D"}


def _caps001(r):
    """Bidding and tricks 1-3 of 001's example; returns the deal index."""
    r.deal(CAPS001)
    r.pas(1)
    r.bid(2, 200)
    r.pas(3, 0, 1)
    r.trump(2, "8C")
    pass8(r, 2)
    r.plays("1:AS 2:8C 3:TS 0:8S")
    r.plays("2:JC 3:AC 0:8D 1:7C")
    r.plays("2:9C 3:TC 0:QH 1:QC")
    return r.d


def _caps001_rest(r):
    """Tricks 5-8 after the JH trick: seat 2 leads 9H 8H 7H KC."""
    r.plays("2:9H 3:JS 0:QS 1:KS")
    r.plays("2:8H 3:9S 0:7S 1:JD")
    r.plays("2:7H 3:AD 0:QD 1:9D")
    r.plays("2:KC 3:KD 0:7D 1:TD")


@record
def caps_001_early():
    r = Record("caps_001_early", dealer=0, track_caps=True, note="""
001's Caps example (clubs trump, trumper seat 2 with JC 9C KC 8C JH 9H 8H
7H). Caps called after the two trump tricks, before leading JH: three hearts
(AH TH KH) are still out and may lie together, so the call is early (001:
"Calling Caps any earlier would be Wrong Caps"). Seat 2 then wins every
trick as called: wrong caps, team 0 pays 2 and gets nothing for its 200.""")
    _caps001(r)
    r.since(0, None)
    r.caps(2, "JH 9H 8H 7H KC", certain=False, judged="early")
    r.plays("2:JH 3:TH 0:KH 1:AH")
    _caps001_rest(r)
    r.end(points=[304, 0], made=True, tokens=[9, 13], trumper=2, bid=200,
          caps="early", caps_seat=2)
    return r


@record
def caps_001_early_mid():
    r = Record("caps_001_early_mid", dealer=0, track_caps=True, note="""
001's Caps example: caps called in the JH trick after the right-hand
opponent's TH but before the partner's heart. AH and KH are out and may both
be seat 3's (which then beats 8H): not yet certain, "until you have seen two
different players play a heart on your jack" (001). Early: team 0 pays 2.""")
    _caps001(r)
    r.plays("2:JH 3:TH")
    r.since(0, None)
    r.caps(2, "9H 8H 7H KC", certain=False, judged="early")
    r.plays("0:KH 1:AH")
    _caps001_rest(r)
    r.end(points=[304, 0], made=True, tokens=[9, 13], trumper=2, bid=200,
          caps="early", caps_seat=2)
    return r


@record
def caps_001_right():
    r = Record("caps_001_right", dealer=0, track_caps=True, note="""
001's Caps example: caps called in the JH trick right after the partner's
heart (001: "At this point you must call Caps"). Only AH is out; it falls
under JH or 9H. Correct, before the seventh trick: the 200 pays 2, +1 = 3.
(The spade cut with the trump card in trick 1 showed 8C to everyone.)""")
    d = _caps001(r)
    e = r.deals[d]["actions"].index({"seat": 0, "do": "play", "card": "8S"})
    for s in (0, 1, 3):
        r.hasview(s, "8C", d, e)
    r.plays("2:JH 3:TH 0:KH")
    r.since(0, 3)
    r.caps(2, "9H 8H 7H KC", certain=True, judged="correct")
    r.plays("1:AH")
    _caps001_rest(r)
    r.end(points=[304, 0], made=True, tokens=[14, 8], trumper=2, bid=200,
          caps="correct", caps_seat=2)
    return r


@record
def caps_001_grace():
    r = Record("caps_001_grace", dealer=0, track_caps=True, note="""
001's Caps example: caps called after the whole JH trick, before seat 2
leads again (001: "calling Caps after all players have played the heart J
trick would still be allowed, provided that you do so before leading your
next card"). Correct: 2 + 1 = 3.""")
    _caps001(r)
    r.plays("2:JH 3:TH 0:KH 1:AH")
    r.since(0, 3)
    r.caps(2, "9H 8H 7H KC", certain=True, judged="correct")
    _caps001_rest(r)
    r.end(points=[304, 0], made=True, tokens=[14, 8], trumper=2, bid=200,
          caps="correct", caps_seat=2)
    return r


@record
def caps_001_late():
    r = Record("caps_001_late", dealer=0, track_caps=True, note="""
001's Caps example: caps called only after seat 2 has led 9H to the next
trick. Caps became certain in the JH trick (the fourth, index 3); the grace
ended with the next lead: late (wrong caps), team 0 pays 2.""")
    _caps001(r)
    r.plays("2:JH 3:TH 0:KH 1:AH")
    r.play(2, "9H")
    r.caps(2, "8H 7H KC", certain=True, judged="late")
    r.plays("3:JS 0:QS 1:KS")
    r.plays("2:8H 3:9S 0:7S 1:JD")
    r.plays("2:7H 3:AD 0:QD 1:9D")
    r.plays("2:KC 3:KD 0:7D 1:TD")
    r.end(points=[304, 0], made=True, tokens=[9, 13], trumper=2, bid=200,
          caps="late", caps_seat=2)
    return r


@record
def caps_001_late_lenient():
    r = Record("caps_001_late_lenient", dealer=0, rules={"caps": "lenient"}, track_caps=True, note="""
caps_001_late under caps = lenient: a late call costs nothing and earns no
bonus: the 200 is paid as bid, 2 tokens.""")
    _caps001(r)
    r.plays("2:JH 3:TH 0:KH 1:AH")
    r.play(2, "9H")
    r.caps(2, "8H 7H KC", certain=True, judged="late")
    r.plays("3:JS 0:QS 1:KS")
    r.plays("2:8H 3:9S 0:7S 1:JD")
    r.plays("2:7H 3:AD 0:QD 1:9D")
    r.plays("2:KC 3:KD 0:7D 1:TD")
    r.end(points=[304, 0], made=True, tokens=[13, 9], trumper=2, bid=200, caps_seat=2)
    return r


@record
def caps_001_early_lenient():
    r = Record("caps_001_early_lenient", dealer=0, rules={"caps": "lenient"}, track_caps=True, note="""
caps_001_early under caps = lenient: an early call is still wrong caps:
team 0 pays 2.""")
    _caps001(r)
    r.caps(2, "JH 9H 8H 7H KC", certain=False, judged="early")
    r.plays("2:JH 3:TH 0:KH 1:AH")
    _caps001_rest(r)
    r.end(points=[304, 0], made=True, tokens=[9, 13], trumper=2, bid=200,
          caps="early", caps_seat=2)
    return r


@record
def caps_001_nocall():
    r = Record("caps_001_nocall", dealer=0, track_caps=True, note="""
001's Caps example without a call (caps = strict, the default): team 0 wins
all eight tricks, and caps had become certain for seat 2 in the JH trick:
"not at all when one is able to do so" is wrong caps (001). Team 0 pays 2;
caps late with no caller.""")
    _caps001(r)
    r.plays("2:JH 3:TH 0:KH 1:AH")
    _caps001_rest(r)
    r.since(0, 3)
    r.end(points=[304, 0], made=True, tokens=[9, 13], trumper=2, bid=200,
          caps="late", caps_seat=None)
    return r


@record
def caps_001_nocall_lenient():
    r = Record("caps_001_nocall_lenient", dealer=0, rules={"caps": "lenient"}, track_caps=True, note="""
caps_001_nocall under caps = lenient: no penalty for not calling: the 200
is made, 2 tokens.""")
    _caps001(r)
    r.plays("2:JH 3:TH 0:KH 1:AH")
    _caps001_rest(r)
    r.end(points=[304, 0], made=True, tokens=[13, 9], trumper=2, bid=200, caps_seat=None)
    r.never({"deal": 0, "end": {"caps": "late"}})
    return r


@record
def caps_001_off():
    r = Record("caps_001_off", dealer=0, rules={"caps": "off"}, note="""
caps_001 under caps = off: the call in the JH trick is refused (caps_off);
no penalty for not calling: the 200 is made, 2 tokens.""")
    _caps001(r)
    r.plays("2:JH 3:TH 0:KH")
    r.caps(2, "9H 8H 7H KC", err="caps_off")
    r.plays("1:AH")
    _caps001_rest(r)
    r.end(points=[304, 0], made=True, tokens=[13, 9], trumper=2, bid=200,
          caps="none", caps_seat=None)
    return r


@record
def caps_refusals():
    r = Record("caps_refusals", dealer=0, track_caps=True, note="""
Refused caps calls on 001's example. While bidding: wrong_phase. At the
right moment (after the partner's KH in the JH trick): an order missing KC,
one naming JH (already played) and one naming KD (not seat 2's) for KC are
refused (caps_order); an opponent's call without external caps
(caps_not_yours).
Then the right call by seat 2; a second call by the partner or by seat 2
(caps_called). Seat 2 must lead 9H next: KC is refused (caps_next). The call
was correct, before the seventh trick: 2 + 1 = 3.""")
    r.deal(CAPS001)
    r.caps(2, "8C JH 9H 8H", err="wrong_phase")
    r.pas(1)
    r.bid(2, 200)
    r.pas(3, 0, 1)
    r.trump(2, "8C")
    pass8(r, 2)
    r.plays("1:AS 2:8C 3:TS 0:8S")
    r.plays("2:JC 3:AC 0:8D 1:7C")
    r.plays("2:9C 3:TC 0:QH 1:QC")
    r.plays("2:JH 3:TH 0:KH")
    r.caps(2, "9H 8H 7H", err="caps_order")
    r.caps(2, "JH 9H 8H 7H KC", err="caps_order")
    r.caps(2, "9H 8H 7H KD", err="caps_order")
    r.caps(3, "JS 9S AD KD", err="caps_not_yours")
    r.caps(2, "9H 8H 7H KC", certain=True, judged="correct")
    r.caps(0, "QS 7S QD 7D", err="caps_called")
    r.caps(2, "9H 8H 7H KC", err="caps_called")
    r.plays("1:AH")
    r.play(2, "KC", err="caps_next")
    r.play(2, "8H", err="caps_next")
    r.plays("2:9H 3:JS 0:QS 1:KS")
    r.plays("2:8H 3:9S 0:7S 1:JD")
    r.plays("2:7H 3:AD 0:QD 1:9D")
    r.plays("2:KC 3:KD 0:7D 1:TD")
    r.end(points=[304, 0], made=True, tokens=[14, 8], trumper=2, bid=200,
          caps="correct", caps_seat=2)
    return r



def _certain_if_seen(r, seat, order, card):
    """The tester's check for seat with the face-down card `card` turned up:
    shows that a claim is uncertain only for want of seeing that card."""
    import copy
    from gen304 import caps_certain
    m = copy.deepcopy(r.m)
    for _, cards, _ in m.tricks:
        for j, (s, c, down) in enumerate(cards):
            if c == card:
                cards[j] = (s, c, False)
    return caps_certain(m, seat, order.split())


# A claim the partner can spoil. Clubs trump, open game, trumper seat 2 holds
# JC 9C AC TC and KH AH TH 9H; the partner, seat 0, holds JH QH 8H 7H with
# 7S 8S 7D 8D; the opponents hold every other card (no heart). Seat 2 cuts
# the first spade, draws the four other trumps (KC QC 8C 7C) in two leads,
# then leads KH: both opponents show they have no heart, the partner plays
# 7H. Seat 2 now knows every heart left (JH QH 8H) is the partner's, no trump
# is out but its AC, and holds AC AH TH 9H.
OVERTAKE = {1: "KC QC JS 9S | AS JD 9D AD", 2: "TC 9H AH TH | JC 9C AC KH",
            3: "8C 7C TS KS | QS TD KD QD", 0: "JH QH 8H 7H | 7S 8S 7D 8D"}


def _overtake(r):
    r.deal(OVERTAKE)
    r.pas(1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.trump(2, "TC")
    pass8(r, 2)
    r.open(2)
    r.plays("1:JS 2:TC 3:TS 0:7S")
    r.plays("2:JC 3:7C 0:7D 1:QC")
    r.plays("2:9C 3:8C 0:8D 1:KC")
    r.plays("2:KH 3:KS 0:7H 1:9S")
    return r.d


@record
def caps_partner_overtake():
    r = Record("caps_partner_overtake", dealer=0, track_caps=True, note="""
A claim the partner could spoil: seat 2 (trumper, clubs, open game) calls
9H AH TH AC after trick 4, knowing the opponents hold no heart and no trump.
But its partner holds JH (with QH 8H 8S): it may overtake any of seat 2's
hearts with JH and lead 8S, on which seat 2 must play the heart its order
names and the opponents' spade wins; no order avoids that (with AC kept for
the spade the partner overtakes later instead). Not certain, since "one is
not allowed to assume any intelligence on the part of ... one's partner"
(000 4.3): early, although the partner plays low and overtakes only the
last heart, and AC then cuts its 8S: all eight tricks, team 0 pays 2.""")
    _overtake(r)
    r.caps(2, "9H AH TH AC", certain=False, judged="early")
    r.plays("2:9H 3:QS 0:8H 1:JD")
    r.plays("2:AH 3:TD 0:QH 1:9D")
    r.plays("2:TH 3:KD 0:JH 1:AD")
    r.plays("0:8S 1:AS 2:AC 3:QD")
    r.end(points=[304, 0], made=True, tokens=[9, 13], trumper=2, bid=160,
          caps="early", caps_seat=2)
    return r


@record
def caps_failed_trick():
    r = Record("caps_failed_trick", dealer=0, track_caps=True, note="""
caps_partner_overtake where the partner does overtake: JH on seat 2's 9H,
then 8S, on which seat 2 plays AH as called and seat 1's AS wins. A trick
lost after calling caps: failed, team 0 pays 5 (not 2, although the call
was also early) and gets nothing for its bid (160 made on points).""")
    _overtake(r)
    r.caps(2, "9H AH TH AC", certain=False, judged="early")
    r.plays("2:9H 3:QS 0:JH 1:JD")
    r.plays("0:8S 1:AS 2:AH 3:TD")
    r.plays("1:9D 2:TH 3:KD 0:QH")
    r.plays("1:AD 2:AC 3:QD 0:8H")
    r.end(points=[237, 67], made=True, tokens=[6, 16], trumper=2, bid=160,
          caps="failed", caps_seat=2)
    return r


@record
def caps_order_broken():
    r = Record("caps_order_broken", dealer=0, track_caps=True, note="""
caps_partner_overtake with the order 9H AC AH TH. Seat 2 may not lead AH
first (caps_next: 9H is next and legal). The partner overtakes 9H with JH
and leads 8H: seat 2's next card AC cannot be played (it holds hearts:
follow_suit), so it plays AH, a legal card. An order that cannot be played
was never certain, so the call stays early (it was judged so when made).
Team 0 wins all eight tricks, and only a lost trick costs 5 (000 4.3):
Wrong Caps, team 0 pays 2.""")
    _overtake(r)
    r.caps(2, "9H AC AH TH", certain=False, judged="early")
    r.play(2, "AH", err="caps_next")
    r.plays("2:9H 3:QS 0:JH 1:JD")
    r.play(0, "8H")
    r.play(1, "9D")
    r.play(2, "AC", err="follow_suit")
    r.play(2, "AH")
    r.play(3, "TD")
    r.plays("2:AC 3:KD 0:8S 1:AS")
    r.plays("2:TH 3:QD 0:QH 1:AD")
    r.end(points=[304, 0], made=True, tokens=[9, 13], trumper=2, bid=160,
          caps="early", caps_seat=2)
    return r


@record
def caps_hidden_trumper_card():
    r = Record("caps_hidden_trumper_card", dealer=0, track_caps=True, note="""
A claim resting on a face-down card the claimer never sees. Closed game,
clubs, trumper seat 2 (trump card 7C). Trick 1: seat 1 leads JS; seat 2 has
no spade and throws AD face down from hand; seat 3 follows; the partner,
seat 0, has no spade and plays TC face down: the inspection finds a trump,
so TC is shown, the trump card 7C is shown and goes back to seat 2, and TC
wins; seat 2's own AD is never shown. Seat 0 draws trumps (JC, 9C: all
eight clubs seen) and, holding AC JD 9D TD KD, calls JD 9D TD KD AC. Had it
seen AD it would be certain (the tester's check says so); as it is, AD may
still be in a hand with QD and 8D and beat TD: early. Seat 0 wins every
trick: team 0 pays 2.""")
    r.deal({2: "7C AD 7H 8H | QH KH TH AH", 0: "JC 9C AC TC | JD 9D TD KD",
            1: "JS 9S AS TS | KC 8C JH QD", 3: "KS QS 8S 7S | QC 9H 8D 7D"})
    r.pas(1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.trump(2, "7C")
    pass8(r, 2)
    d = r.d
    r.plays("1:JS 2:AD 3:7S 0:TC")
    r.plays("0:JC 1:8C 2:7C 3:QC")
    r.plays("0:9C 1:KC 2:7H 3:8S")
    order = "JD 9D TD KD AC"
    assert _certain_if_seen(r, 0, order, "AD")
    r.caps(0, order, certain=False, judged="early")
    for s in (0, 1, 3):
        r.noview(s, "AD", d)
    r.plays("0:JD 1:QD 2:8H 3:7D")
    r.plays("0:9D 1:JH 2:QH 3:8D")
    r.plays("0:TD 1:9S 2:KH 3:9H")
    r.plays("0:KD 1:AS 2:TH 3:KS")
    r.plays("0:AC 1:TS 2:AH 3:QS")
    r.end(points=[304, 0], made=True, tokens=[9, 13], trumper=2, bid=160,
          caps="early", caps_seat=0)
    return r


# Inspection knowledge. Bid 250 (the trump is shown after trick 1). Seat 1
# leads 7S; seat 3, with no spade, throws AD face down: no trump, so AD stays
# face down for ever and only the trumper (and seat 3) ever know it is gone.
# The seat holding JS JC 9C AC TC JD 9D TD wins trick 1 with JS; leading its
# four trumps draws the other four (KC QC 8C 7C) whatever their lie; its
# diamonds J 9 T then beat every diamond left (KD QD 8D 7D) once AD is gone.
SEES = {2: "TC JS JD 9D | JC 9C AC TD", 3: "AD KD JH 9H | AH TH KC QC",
        1: "9S AS TS 7S | KH QH QD 8C", 0: "KS QS 8S 8H | 7H 8D 7D 7C"}


def _sees(r):
    """Bidding and trick 1 of caps_trumper_sees; returns the last action."""
    r.pas(1)
    r.bid(2, 250)
    r.pas(3, 0, 1)
    r.trump(2, "TC")
    pass8(r, 2)
    r.since(0, None)
    e = r.plays("1:7S 2:JS 3:AD 0:8S")
    r.since(0, 0)
    return e


@record
def caps_trumper_sees():
    r = Record("caps_trumper_sees", dealer=0, track_caps=True, note="""
The trumper's inspection makes a claim certain. Seat 2 bids 250 (clubs,
trump card TC), holds JS JC 9C AC TC JD 9D TD. Trick 1: 7S, JS, seat 3's AD
face down (no trump: it stays face down), 8S. Only the trumper saw AD, so
only it knows that nothing beats its diamonds once the trumps are drawn.
Before AD was played the claim was not certain (AD could lie with KD QD).
It calls JC 9C AC TC JD 9D TD before leading to trick 2: correct, before
the seventh trick: 3 + 1 = 4 tokens.""")
    r.deal(SEES)
    d = r.d
    e = _sees(r)
    r.hasview(2, "AD", d, e)
    r.noview(0, "AD", d)
    r.noview(1, "AD", d)
    r.caps(2, "JC 9C AC TC JD 9D TD", certain=True, judged="correct")
    r.auto()
    r.end(points=[304, 0], made=True, tokens=[15, 7], trumper=2, bid=250,
          caps="correct", caps_seat=2)
    return r


@record
def caps_trumper_sees_late():
    r = Record("caps_trumper_sees_late", dealer=0, track_caps=True, note="""
caps_trumper_sees with the call made after seat 2 has led JC to trick 2:
caps became certain for seat 2 with the last card of trick 1 (the
inspection), so the grace ended with its next lead: late, team 0 pays 2.""")
    r.deal(SEES)
    _sees(r)
    r.play(2, "JC")
    r.caps(2, "9C AC TC JD 9D TD", certain=True, judged="late")
    r.auto()
    r.end(points=[304, 0], made=True, tokens=[9, 13], trumper=2, bid=250,
          caps="late", caps_seat=2)
    return r


@record
def caps_partner_blind():
    r = Record("caps_partner_blind", dealer=0, track_caps=True, note="""
caps_trumper_sees with the strong cards in the partner's hand: seat 2 bids
250 (clubs, trump card 7C); seat 0 holds JS JC 9C AC TC JD 9D TD, wins trick
1 with JS over seat 3's AD face down, and calls the same claim. Seat 0 never
saw AD, which may still lie with KD and QD: early (it would be certain with
AD seen: the tester's check says so). Team 0 wins all eight: pays 2.""")
    r.deal({2: "7C KS QS 8S | 8H 7H 8D 7D", 3: "AD KD JH 9H | AH TH KC QC",
            1: "9S AS TS 7S | KH QH QD 8C", 0: "JS JD 9D TD | JC 9C AC TC"})
    r.pas(1)
    r.bid(2, 250)
    r.pas(3, 0, 1)
    r.trump(2, "7C")
    pass8(r, 2)
    d = r.d
    r.plays("1:7S 2:8S 3:AD 0:JS")
    r.noview(0, "AD", d)
    order = "JC 9C AC TC JD 9D TD"
    assert _certain_if_seen(r, 0, order, "AD")
    r.caps(0, order, certain=False, judged="early")
    r.auto()
    r.end(points=[304, 0], made=True, tokens=[9, 13], trumper=2, bid=250,
          caps="early", caps_seat=0)
    return r


@record
def caps_pcc():
    r = Record("caps_pcc", dealer=0, track_caps=True, note="""
pcc_made with a caps call: no caps call in Partner Close Caps (caps_pcc),
not even from the bidder who is about to win every trick. Winning all eight
is the bid itself, so no wrong-caps penalty under strict caps: 4 tokens.""")
    r.deal(PCC_HANDS)
    r.bid(1, 160)
    r.pas(2, 3, 0)
    r.trump(1, "AD")
    r.pas(1)
    r.bid(2, "pcc")
    r.trump(2, "QS")
    r.plays("2:JS 3:8S 1:7S")
    r.caps(2, "9S AS TS KS QS JH 9H", err="caps_pcc")
    r.plays("2:9S 3:JD 1:AD")
    r.plays("2:JH 3:JC 1:AH")
    r.plays("2:9H 3:9D 1:TH")
    r.plays("2:AS 3:9C 1:KH")
    r.plays("2:TS 3:QD 1:QH")
    r.plays("2:KS 3:AC 1:TD")
    r.plays("2:QS 3:TC 1:KD")
    r.end(points=[304, 0], made=True, tokens=[15, 7], trumper=2, bid="pcc",
          caps="none", caps_seat=None)
    return r


# External caps. Seat 0 bids 160 with KS QS 8S 7S (trump card 7S) and opens
# the game; seat 1 holds JS 9S AS TS JH 9H AH TH. Once the game is open seat 1
# knows spades are trump and that 7S is seat 0's: leading its four trumps
# draws KS QS 8S 7S, and its four hearts are the four best. Its partner
# (seat 3: KD QD and six clubs) can neither overtake nor cut. Certain from
# the opening, before any card is played; not before (a closed trump of
# another suit could cut its leads).
EXTERNAL = {0: "KS QS 8S 7S | 8D 7D 8C 7C", 1: "JS 9S AS TS | JH 9H AH TH",
            2: "KH QH 8H 7H | JD 9D AD TD", 3: "KD QD JC 9C | AC TC KC QC"}


def _external(r):
    r.deal(EXTERNAL)
    r.pas(1, 2, 3)
    r.bid(0, 160)
    r.pas(1, 2, 3)
    r.trump(0, "7S")
    pass8(r, 0)
    r.open(0)
    r.certain_at(1, "JS 9S AS TS JH 9H AH TH")
    return r.d


@record
def caps_external_refused():
    r = Record("caps_external_refused", dealer=0, track_caps=True, note="""
Without external_caps the trumper's opponents may not call caps: seat 1's
certain claim is refused (caps_not_yours). Team 1 then wins every trick;
the trumper (seat 0, 160) fails: pays 2. No caps outcome: the wrong-caps
rule for not calling binds the trumper's team only.""")
    _external(r)
    r.caps(1, "JS 9S AS TS JH 9H AH TH", err="caps_not_yours")
    r.auto()
    r.end(points=[0, 304], made=False, tokens=[9, 13], trumper=0, bid=160,
          caps="none", caps_seat=None)
    return r


@record
def caps_external():
    r = Record("caps_external", dealer=0, rules={"external_caps": "on"}, track_caps=True, note="""
External caps (001 variants; RULES.md external_caps = on): seat 1, an
opponent of the trumper, calls JS 9S AS TS JH 9H AH TH right after seat 0
opens the game, before the first card, as soon as it is certain. Correct
before the seventh trick: the trumper's team pays the failed-bid charge
(160: 2) plus 1, so 3 tokens.""")
    _external(r)
    r.caps(1, "JS 9S AS TS JH 9H AH TH", certain=True, judged="correct")
    r.auto()
    r.end(points=[0, 304], made=False, tokens=[8, 14], trumper=0, bid=160,
          caps="correct", caps_seat=1)
    return r


BONUS6 = {2: "KC JH 9H 8H | JC 9C AC TC", 1: "AS 7C KH 7D | 8D TH AD TD",
          3: "7S 8C QC QH | 8S AH 7H KD", 0: "QS KS TS 9S | JS JD 9D QD"}


def _bonus6(r):
    """caps_bonus_sixth up to seat 1's card in the sixth trick."""
    r.pas(1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.trump(2, "KC")
    pass8(r, 2)
    r.open(2)
    r.plays("1:AS 2:KC 3:7S 0:QS")
    r.plays("2:JC 3:8C 0:KS 1:7C")
    r.plays("2:9C 3:QC 0:TS 1:KH")
    r.plays("2:AC 3:QH 0:9S 1:7D")
    r.plays("2:TC 3:8S 0:JS 1:8D")
    r.plays("2:JH 3:AH 0:JD")
    r.since(0, None)


@record
def caps_bonus_sixth():
    r = Record("caps_bonus_sixth", dealer=0, track_caps=True, note="""
The bonus up to the last moment. Clubs trump, seat 2 opens the game, holds
KC JC 9C AC TC JH 9H 8H; cuts seat 1's AS with KC, then leads JC 9C AC TC
(exhausted trumps from AC on: nobody else has a trump), the others throwing
KH and QH among other cards. Sixth trick: JH; seat 3 plays AH, seat 0 has no
heart, seat 1 plays TH. Before TH, TH and 7H were out and could both be
seat 3's (7H under 9H, then TH over 8H): not certain. After it only 7H is
out: certain with the last card of the sixth trick. The call 9H 8H before
the seventh trick's first card is correct and earns the bonus: 160 pays
1 + 1 = 2.""")
    r.deal(BONUS6)
    _bonus6(r)
    r.plays("1:TH")
    r.since(0, 5)
    r.caps(2, "9H 8H", certain=True, judged="correct")
    r.plays("2:9H 3:7H 0:9D 1:AD")
    r.plays("2:8H 3:KD 0:QD 1:TD")
    r.end(points=[304, 0], made=True, tokens=[13, 9], trumper=2, bid=160,
          caps="correct", caps_seat=2)
    return r


@record
def caps_no_bonus_seventh():
    r = Record("caps_no_bonus_seventh", dealer=0, track_caps=True, note="""
Caps that becomes certain only in the seventh trick. Clubs trump, seat 2
opens the game, holds QC JC 9C AC TC KC JH 8H; cuts seat 1's AS with QC,
then leads JC 9C AC TC KC (exhausted trumps from 9C on), the others throwing
9H TH KH QH among other cards. Before the seventh trick nobody on team 0 is
certain (for seat 2: AH and 7H could be one player's, 7H under JH, AH over
8H). Seventh trick: seat 2 leads JH, and its partner (7H JD, the best
diamond) becomes certain; seat 3 plays AH: now only 7H is out, below 8H,
and seat 2 calls 8H, within the grace of that trick.
Correct, but after the seventh trick began: no bonus (000 4.3: "the extra
token ... may not be collected in this case"): 160 pays 1.""")
    r.deal({2: "QC JH 8H JC | 9C AC TC KC", 1: "AS 7C 9H TH | 7D 8D AD TD",
            3: "7S 8C KH QH | 8S QD AH KD", 0: "QS KS TS 9S | JS 9D 7H JD"})
    r.pas(1)
    r.bid(2, 160)
    r.pas(3, 0, 1)
    r.trump(2, "QC")
    pass8(r, 2)
    r.open(2)
    r.plays("1:AS 2:QC 3:7S 0:QS")
    r.plays("2:JC 3:8C 0:KS 1:7C")
    r.plays("2:9C 3:KH 0:TS 1:9H")
    r.plays("2:AC 3:QH 0:9S 1:TH")
    r.plays("2:TC 3:8S 0:JS 1:7D")
    r.plays("2:KC 3:QD 0:9D 1:8D")
    r.since(0, None)
    r.plays("2:JH")
    # the partner (7H JD) is certain first: AH must fall under JH if 8H is
    # seat 2's, and if 8H is not, JD wins the diamond seat 2 leads last
    r.since(0, 6)
    r.plays("3:AH")
    r.caps(2, "8H", certain=True, judged="correct")
    r.plays("0:7H 1:TD")
    r.plays("2:8H 3:KD 0:JD 1:AD")
    r.end(points=[304, 0], made=True, tokens=[12, 10], trumper=2, bid=160,
          caps="correct", caps_seat=2)
    return r



@record
def caps_external_late():
    r = Record("caps_external_late", dealer=0, rules={"external_caps": "on"}, track_caps=True, note="""
caps_external with the call made only after seat 1 has led JS. Caps was
certain for seat 1 from the opening of the game, before the first card, and
then the call must come before the first card is led: late (wrong caps),
team 1 pays 2 and the trumper's failed 160 pays nothing.""")
    _external(r)
    r.play(1, "JS")
    r.caps(1, "9S AS TS JH 9H AH TH", certain=True, judged="late")
    r.auto()
    r.end(points=[0, 304], made=False, tokens=[13, 9], trumper=0, bid=160,
          caps="late", caps_seat=1)
    return r


# The trumper certain before the first card: seat 1 (dealer+1) bids 160 with
# JS 9S AS TS (trump card TS), holds JH 9H AH TH too, and opens the game.
# Closed, it was not certain (it may not lead a trump to the first trick of
# a closed game, and a heart could be cut by a hidden trump); open, leading
# its four trumps draws KS QS 8S 7S and its hearts are the four best.
FIRST = {1: "JS 9S AS TS | JH 9H AH TH", 0: "KS QS 8S 7S | 8D 7D 8C 7C",
         2: "KH QH 8H 7H | JD 9D AD TD", 3: "KD QD JC 9C | AC TC KC QC"}


def _first(r):
    r.deal(FIRST)
    r.bid(1, 160)
    r.pas(2, 3, 0)
    r.trump(1, "TS")
    pass8(r, 1)
    r.since(1, None)
    r.open(1)
    r.certain_at(1, "JS 9S AS TS JH 9H AH TH")
    r.since(1, -1)
    return r.d


@record
def caps_first_card():
    r = Record("caps_first_card", dealer=0, track_caps=True, note="""
Caps certain before the first card: seat 1 (dealer+1, spades, 160) opens
the game holding JS 9S AS TS JH 9H AH TH and calls at once, before leading:
correct, 1 + 1 = 2 tokens.""")
    _first(r)
    r.caps(1, "JS 9S AS TS JH 9H AH TH", certain=True, judged="correct")
    r.auto()
    r.end(points=[0, 304], made=True, tokens=[9, 13], trumper=1, bid=160,
          caps="correct", caps_seat=1)
    return r


@record
def caps_first_card_late():
    r = Record("caps_first_card_late", dealer=0, track_caps=True, note="""
caps_first_card with the call after seat 1's first lead (JS): caps was
certain before the first card, so the call had to come before it: late,
team 1 pays 2.""")
    _first(r)
    r.play(1, "JS")
    r.caps(1, "9S AS TS JH 9H AH TH", certain=True, judged="late")
    r.auto()
    r.end(points=[0, 304], made=True, tokens=[13, 9], trumper=1, bid=160,
          caps="late", caps_seat=1)
    return r


@record
def caps_late_after_trick_end():
    r = Record("caps_late_after_trick_end", dealer=0, track_caps=True, note="""
caps_bonus_sixth with the call made after seat 2 has led 9H to the seventh
trick. Caps became certain with the last card of the sixth trick; the grace
ended when the next card was led: late, team 0 pays 2.""")
    r.deal(BONUS6)
    _bonus6(r)
    r.plays("1:TH")
    r.play(2, "9H")
    r.caps(2, "8H", certain=True, judged="late")
    r.plays("3:7H 0:9D 1:AD")
    r.plays("2:8H 3:KD 0:QD 1:TD")
    r.end(points=[304, 0], made=True, tokens=[9, 13], trumper=2, bid=160,
          caps="late", caps_seat=2)
    return r


def main():
    only = set(sys.argv[1:])
    for fn in RECORDS:
        if only and fn.__name__ not in only:
            continue
        r = fn()
        if not os.environ.get("PROBE"):
            r.write(OUT)
    if not os.environ.get("PROBE"):
        print("gen_records: wrote %d records" % len(RECORDS))


if __name__ == "__main__":
    main()
