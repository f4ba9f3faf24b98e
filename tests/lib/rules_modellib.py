"""rules_modellib.py: a second, independent model of the 304 rules, used by
tests/cli/rules_model.py to check the engine through `cardbot replay`.

Everything here was written from the rule texts alone: RULES.md (the
project's rule decisions, ../shared/RULES.md beside the repository: "304"
and "Fine points of 304"), docs/RECORD.md (the record and replay formats,
and its notes on the last trick and on only trumps at the first lead) and
the seeds 000 and 001 (the Jaffna rules). Nothing is taken from the
engine's C code; the two meet only in the replay output, so a rule misread
on one side shows up as a disagreement.

Two models:
- Bidding: the four-card bidding (pagat and single styles, fives on or
  off, asking partner, the rejected hand), the choice of the trump card and
  the eight-card round (pcc included); it says whether each action is
  accepted and how the deal ends.
- Play: a deal from the first lead on (face up or down, the trumper's
  choices, the trump card on the table, the dealer+1 bar on leading trumps,
  the inspection and the reveal, open games, the 250/pcc rule, exhausted
  trumps, pcc, spoilt calls), plus what every seat may see of it.
"""

RANKS = "J9ATKQ87"  # strongest first
POINTS = {"J": 30, "9": 20, "A": 11, "T": 10, "K": 3, "Q": 2, "8": 0, "7": 0}
SUITS = "SHDC"
DECK = [r + s for s in SUITS for r in RANKS]


def suit(card):
    return card[1]


def strength(card):
    return len(RANKS) - RANKS.index(card[0])


def team(seat):
    return seat % 2


def points(cards):
    return sum(POINTS[c[0]] for c in cards)


def stakes(bid):
    """(tokens won, tokens lost) for a bid (RULES.md, scoring in tokens)."""
    if bid == "pcc":
        return 4, 5
    if bid < 200:
        return 1, 2
    if bid < 250:
        return 2, 3
    return 3, 4


# ---------------------------------------------------------------- dealing

def deal_order(dealer):
    """Seats in the order they receive cards: dealer+1 first."""
    return [(dealer + k) % 4 for k in (1, 2, 3, 4)]


def hands_from_deck(dealer, deck):
    """seat -> its 8 cards, the first four being the first batch."""
    hands = {}
    for n, seat in enumerate(deal_order(dealer)):
        hands[seat] = deck[4 * n:4 * n + 4] + deck[16 + 4 * n:20 + 4 * n]
    return hands


def deck_from_hands(dealer, hands):
    deck = []
    for half in (0, 1):
        for seat in deal_order(dealer):
            deck += hands[seat][4 * half:4 * half + 4]
    assert sorted(deck) == sorted(DECK)
    return deck


def make_record(dealer, deals, rules=None):
    rec = {"format": "cardbot-record/1", "game": "304",
           "players": ["ann", "ben", "cat", "dev"], "dealer": dealer,
           "deals": deals}
    if rules:
        rec["rules"] = rules
    return rec


# ---------------------------------------------------------------- bidding

class Bidding:
    """Four-card bidding, trump card, eight-card round (RULES.md "Four-card
    bidding", "Trump card", "Eight-card bidding", "Rejection", and the fine
    points on turns and asks). apply() answers "ok", "refused" or, for an
    accepted action that ends the deal, the outcome ("redeal",
    "passed_out")."""

    def __init__(self, dealer, deck, single=False, fives=False):
        self.dealer, self.single, self.fives = dealer, single, fives
        self.hands = hands_from_deck(dealer, deck)
        self.phase = "bid4"
        self.turn = (dealer + 1) % 4
        self.asker = None          # seat whose partner is answering
        self.high = 0              # highest bid so far (number)
        self.holder = None         # who holds the highest four-card bid
        self.turns_taken = [0] * 4
        self.passes = 0            # passing turns in a row
        self.big_bid_made = False  # someone bid 200 or more (single style)
        self.trumper = None
        self.round8_bidder = None
        self.round8_turns = 0
        self.anything_done = False

    def first4(self, seat):
        return self.hands[seat][:4]

    def step_ok(self, value):
        if value % 10 == 0:
            return True
        return self.fives and value >= 200 and value % 5 == 0

    def apply(self, act):
        seat, do = act["seat"], act["do"]
        if self.phase == "bid4":
            return self._bid4(seat, do, act.get("value"))
        if self.phase in ("trump4", "trump8"):
            if do != "trump" or seat != self.trumper:
                return "refused"
            pool = self.first4(seat) if self.phase == "trump4" else self.hands[seat]
            if act["card"] not in pool:
                return "refused"
            if self.phase == "trump4":
                self.phase, self.turn = "bid8", self.trumper
            else:
                self.phase = "play"
            return "ok"
        if self.phase == "bid8":
            return self._bid8(seat, do, act.get("value"))
        return "refused"

    def _bid4(self, seat, do, value):
        if do == "redeal":
            if seat == (self.dealer + 1) % 4 and not self.anything_done \
                    and points(self.first4(seat)) < 15:
                self.phase = "over"
                return "redeal"
            return "refused"
        if do not in ("bid", "pass", "partner") or seat != self.turn:
            return "refused"
        partner = (seat + 2) % 4
        if do == "partner":
            if self.asker is not None or self.holder == partner:
                return "refused"
            self.asker, self.turn = seat, partner
            self.anything_done = True
            return "ok"
        # The turn belongs to the asker when answering an ask.
        owner = self.asker if self.asker is not None else seat
        if do == "bid":
            if value == "pcc" or value < 160 or value > 300 or \
                    not self.step_ok(value) or value <= self.high:
                return "refused"
            limited = self.turns_taken[seat] > 0 or self.holder == partner
            if self.single:
                # one bid each; the exceptions need the first bid of 200+
                if limited and (self.big_bid_made or value < 200):
                    return "refused"
            elif limited and value < 200:
                return "refused"
            self.high, self.holder, self.passes = value, seat, 0
            if value >= 200:
                self.big_bid_made = True
        else:
            self.passes += 1
        self.turns_taken[seat] += 1
        if owner != seat:
            self.turns_taken[owner] += 1
        self.asker = None
        self.anything_done = True
        if self.holder is None and self.passes >= 4:
            self.phase = "over"
            return "passed_out"
        if self.holder is not None and self.passes >= 3:
            self.phase, self.trumper = "trump4", self.holder
            self.turn = self.holder
            return "ok"
        nxt = (owner + 1) % 4
        if nxt == self.holder:
            nxt = (nxt + 1) % 4
        self.turn = nxt
        return "ok"

    def _bid8(self, seat, do, value):
        if do not in ("bid", "pass") or seat != self.turn:
            return "refused"
        if do == "bid":
            if self.round8_bidder == (seat + 2) % 4:
                return "refused"     # partner holds the highest: must pass
            if value != "pcc":
                if value < 250 or value > 300 or not self.step_ok(value) \
                        or value <= self.high:
                    return "refused"
                self.high = value
            self.round8_bidder = seat
        self.round8_turns += 1
        if self.round8_turns >= 4 or value == "pcc" and do == "bid":
            if self.round8_bidder is None:
                self.phase = "play"
            else:
                self.phase, self.trumper = "trump8", self.round8_bidder
        else:
            self.turn = (seat + 1) % 4
        return "ok"


def scripted_bidding(dealer, hands, trumper, bid, trump_card,
                     first_bidder=None, first_card=None):
    """Bidding actions (all legal) that end with `trumper` playing `bid`
    under `trump_card`, stopping just before play. A bid of 250 or more, or
    pcc, is made in the eight-card round over a 160 by `first_bidder`
    (default dealer+1), who first lays `first_card`."""
    start = (dealer + 1) % 4
    acts = []

    def four_card_win(winner, card):
        for k in range((winner - start) % 4):
            acts.append({"seat": (start + k) % 4, "do": "pass"})
        acts.append({"seat": winner, "do": "bid",
                     "value": 160 if bid == "pcc" or bid >= 250 else bid})
        for k in (1, 2, 3):
            acts.append({"seat": (winner + k) % 4, "do": "pass"})
        acts.append({"seat": winner, "do": "trump", "card": card})

    if bid != "pcc" and bid < 250:
        four_card_win(trumper, trump_card)
        for k in range(4):
            acts.append({"seat": (trumper + k) % 4, "do": "pass"})
        return acts
    first = start if first_bidder is None else first_bidder
    four_card_win(first, first_card or hands[first][0])
    for k in range(4):
        seat = (first + k) % 4
        if seat == trumper:
            acts.append({"seat": seat, "do": "bid", "value": bid})
            if bid == "pcc":
                break
        else:
            acts.append({"seat": seat, "do": "pass"})
    acts.append({"seat": trumper, "do": "trump", "card": trump_card})
    return acts


# ---------------------------------------------------------------- play

class Play:
    """One deal from the first lead on (RULES.md "Play, closed trump", the
    corners, "The inspection", "Open trump", "Bids of 250 and over",
    "Exhausted trumps", "Spoilt trumps", "Partner Close Caps" and the fine
    points on face up/down, exhausted trumps and spoilt)."""

    def __init__(self, dealer, hands, trumper, bid, trump_card, opened=False):
        self.dealer, self.trumper, self.bid = dealer, trumper, bid
        self.pcc = bid == "pcc"
        self.out = (trumper + 2) % 4 if self.pcc else None
        self.dealt = {s: list(hands[s]) for s in range(4)}
        self.hands = {s: list(hands[s]) for s in range(4)}
        self.trump = suit(trump_card)
        self.trump_card = trump_card
        self.hands[trumper].remove(trump_card)
        self.card_on_table = True
        self.closed = True
        self.trump_public = False  # the trump card has been shown to all
        if opened:
            self.open_game()
        self.leader = trumper if self.pcc else (dealer + 1) % 4
        self.trick_no = 1
        self.trick = []            # [(seat, card, face_down)]
        self.tricks = []           # {"cards", "done", "revealed", "winner"}
        self.exhausted = False
        self.points = [0, 0]
        self.tricks_won = [0, 0]
        self.trumper_tricks = 0
        self.done = False
        self.made = None

    def open_game(self):
        self.closed = False
        self.trump_public = True
        if self.card_on_table:
            self.card_on_table = False
            self.hands[self.trumper].append(self.trump_card)

    def order(self):
        seats = [(self.leader + k) % 4 for k in range(4)]
        return [s for s in seats if s != self.out]

    def to_move(self):
        return None if self.done else self.order()[len(self.trick)]

    def holds(self, seat):
        """Everything the seat could try to play."""
        cards = list(self.hands[seat])
        if seat == self.trumper and self.card_on_table:
            cards.append(self.trump_card)
        return cards

    def only_trumps_first_lead(self, seat):
        """The corner of a trumper at dealer+1 who must lead a closed first
        trick with nothing but trumps in hand."""
        return (seat == self.trumper and self.closed and self.trick_no == 1
                and not self.trick and seat == (self.dealer + 1) % 4
                and all(suit(c) == self.trump for c in self.hands[seat]))

    def legal(self, seat):
        hand = self.hands[seat]
        trumper = seat == self.trumper
        on_table = trumper and self.card_on_table
        if not self.trick:
            if trumper and self.exhausted:
                trumps = [c for c in hand if suit(c) == self.trump]
                if trumps:
                    return trumps
            if on_table and not hand:
                return [self.trump_card]          # the last card
            if self.only_trumps_first_lead(seat):
                return list(hand)                 # leading one opens the game
            if trumper and self.closed and self.trick_no == 1 and \
                    seat == (self.dealer + 1) % 4:
                return [c for c in hand if suit(c) != self.trump]
            return list(hand)
        led = suit(self.trick[0][1])
        follow = [c for c in hand if suit(c) == led]
        if follow:
            return follow
        if not trumper or not self.closed:
            return list(hand) + ([self.trump_card] if on_table and not hand else [])
        # Closed, trumper cannot follow: a non-trump from hand, or cut with
        # the trump card (not with another trump).
        choice = [c for c in hand if suit(c) != self.trump]
        if on_table and (led != self.trump or not hand):
            choice.append(self.trump_card)
        return choice

    def play(self, seat, card):
        """Plays a legal card; returns True when it ended a trick."""
        lead = not self.trick
        if lead and self.only_trumps_first_lead(seat):
            self.open_game()
        from_table = seat == self.trumper and self.card_on_table and \
            card == self.trump_card
        if from_table:
            self.card_on_table = False
        else:
            self.hands[seat].remove(card)
        if lead:
            down = False
            if seat == self.trumper and not self.pcc and not from_table and \
                    suit(card) == self.trump and \
                    not any(suit(c) == self.trump for o in range(4) if o != seat
                            for c in self.hands[o]):
                self.exhausted = True
        else:
            down = self.closed and suit(card) != suit(self.trick[0][1])
        if card == self.trump_card and not down:
            self.trump_public = True
        if not self.trick:
            self.tricks.append({"cards": [], "done": False, "revealed": False,
                                "winner": None})
        self.trick.append((seat, card, down))
        self.tricks[-1]["cards"].append((seat, card, down))
        if self.exhausted and not any(suit(c) == self.trump
                                      for c in self.hands[self.trumper]):
            self.exhausted = False
        if len(self.trick) == len(self.order()):
            self._end_trick()
            return True
        return False

    def _end_trick(self):
        led = suit(self.trick[0][1])
        trumps = [(strength(c), s) for s, c, _ in self.trick if suit(c) == self.trump]
        if trumps:
            winner = max(trumps)[1]
        else:
            winner = max((strength(c), s) for s, c, _ in self.trick if suit(c) == led)[1]
        self.points[team(winner)] += points(c for _, c, _ in self.trick)
        self.tricks_won[team(winner)] += 1
        if winner == self.trumper:
            self.trumper_tricks += 1
        info = self.tricks[-1]
        info["done"], info["winner"] = True, winner
        if self.closed and any(d and suit(c) == self.trump for _, c, d in self.trick):
            info["revealed"] = True          # the inspection found a trump
            self.open_game()
        if self.closed and self.trick_no == 1 and (self.pcc or self.bid >= 250):
            self.open_game()                 # closed for the first trick only
        self.trick = []
        self.leader = winner
        self.trick_no += 1
        if self.trick_no > 8:
            self.done = True
            if self.pcc:
                # the sitting-out partner's cards count for the trumper
                mine = team(self.trumper)
                self.points[mine] = 304 - self.points[1 - mine]
                self.made = self.trumper_tricks == 8
            else:
                self.made = self.points[team(self.trumper)] >= self.bid

    def spoilt_right(self):
        return not any(suit(c) == self.trump
                       for o in ((self.trumper + 1) % 4, (self.trumper + 3) % 4)
                       for c in self.dealt[o])

    # What each seat may see.

    def rendered_tricks(self, viewer):
        """The tricks as `viewer` may see them: [[(seat, card or "down")]]."""
        out = []
        for t in self.tricks:
            row = []
            for s, c, down in t["cards"]:
                visible = (not down or s == viewer
                           or (viewer == self.trumper and t["done"])
                           or (t["revealed"] and (s != self.trumper or c == self.trump_card)))
                row.append((s, c if visible else "down"))
            out.append(row)
        return out

    def knows_trump(self, viewer):
        return self.trump_public or viewer == self.trumper

    def hand_of(self, seat):
        return sorted(self.hands[seat])

    def knowable(self, viewer):
        """Every card `viewer` may know by now."""
        known = set(self.dealt[viewer])
        if self.knows_trump(viewer):
            known.add(self.trump_card)
        for row in self.rendered_tricks(viewer):
            known |= {c for _, c in row if c != "down"}
        return known
