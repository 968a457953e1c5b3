"""The packed rules array's layout: where each rule value sits in the int64 array the kernels and the
strategies receive (sim/rules/pack.py fills it). Part of the contract, which re-exports every name; a
module of its own so that the contract stays within the engine's 500-line bound.

Each field is read by the one engine module of the rule it belongs to (tests/engine/test_layout.py)."""

R_PLAYERS = 0
R_NSIDES = 1
R_HAND = 2
R_PACK = 3
R_DECKS = 4
R_JOKERS = 5  # jokers in the whole pack
R_DRAW = 6
R_UPCARD = 7
R_GO_CANASTAS = 8
R_GO_BONUS = 9
R_CONC_BONUS = 10  # 0 = no concealed bonus
R_CONC_WAIVE = 11  # concealed going out after a stock draw waives the minimum
R_B3MIN = 12
R_B3MAX = 13  # 0 = black-three melds never allowed
R_MIN_NAT = 14
R_MAX_WILD = 15
R_CANASTA = 16  # cards that make a canasta
R_UPCARD_COVER = 17  # card classes (CC_*) covered when turned as the upcard; the pile is then frozen
R_ASK = 18  # ASK_NONE, ASK_PARTNER or ASK_CHOOSE
R_ONE_CARD = 19
R_EOS = 20  # end-of-stock rule: EOS_CLASSIC
R_LAST_R3_MELD = 21  # R-05 option last_red3_may_meld
R_TARGET = 22
R_TARGET_STRICT = 23  # 1: game ends when a score exceeds the target (House-003)
R_MAX_TURNS = 24  # simulator safeguard per hand
R_MAX_HANDS = 25  # simulator safeguard per game
R_PM_UNFROZEN = 26  # bitmask of pile methods: MASK_M1 | MASK_M2 | MASK_M3
R_PM_FROZEN = 27
R_PM_PREMELD = 28
R_UNTAKE = 29  # card classes that can never be taken from the top of the pile
R_RED3_NEG = 30  # 1: red threes count negative when the side has no meld
R_DEALER_DIR = 31  # +1 left, -1 right
R_MAXM = 32  # meld rows per side
R_MTAB_N = 33
R_CONC_PARTNER_UNMELDED = 34  # R-13 option concealed_requires_partner_unmelded
R_FREEZE_ON = 35  # card classes whose discard freezes the pile
R_BLOCK_ON = 36  # card classes whose discard bars the next player from the pile (block_next)
R_UPCARD_BLOCK = 37  # card classes that stay as the upcard and bar the first player
R_EOS_TAKE_ENDS = 38  # R-06 read literally: a pile taken at the empty stock ends the hand once taken
R_WILD_LT_NAT = 39  # 1: a rank meld holds fewer wilds than naturals (House-001 R-65, Boat R-36)
R_CARDVAL = 40  # 14 values, by rank class
R_RED3TAB = 56  # red-three points for 0..8 threes held by a side (magnitude)
R_MTAB_THR = 66  # up to 8 thresholds (ascending), first is "minus infinity"
R_MTAB_REQ = 74
R_SEAT_SIDE = 82  # side of each seat
R_CANBONUS = 90  # [NCK] canasta bonus by canasta kind (CK_*)
R_TOP_CARD = 98  # 1: the top discard alone may be taken instead of drawing (House-001, R-54)
R_GO_DISCARD = 99  # 1: going out needs a final discard; the last card may not be melded (House-001, R-58)
R_EXACT_PPM = 100  # probability of the exact-deal bonus, in parts per million
R_EXACT_BONUS = 101  # the exact-deal bonus to the dealer's side; 0: none
R_OPEN_ROUNDS = 102  # each player's first turns: draw and discard only (Boat, R-32)
R_WILD_MELDS = 103  # 1: melds of wild cards only, one per side (Boat, R-35)
R_WILD_TIE_BIG = 104  # 1: a wild canasta with as many jokers as twos is big (R-35 option; Boat: small)
R_TABLE_NEG = 105  # 1: a side without a canasta scores its melds and red threes negative (Boat, R-34)
R_B3_HAND = 106  # points a black three left in a hand costs (Classic 5, Boat 100)
R_KEEP_LAST = 107  # 1: a last card may be kept without discarding when the player may not go out
R_B3_CLOSE = 108  # bonus for going out by melding black threes, in place of the going-out bonus; 0: none
R_FOOT = 109  # cards in each player's foot or kitty, dealt face down; 0: none (Pennies, Railroad)
R_FOOT_KINDS = 110  # canasta kinds (bits 1 << CK_*) whose first personal completion brings the foot
R_FOOT_R3 = 111  # points for each red three in a foot never picked up (Pennies -100, R-96; Railroad 0, R-115)
R_MELD_CAP = 112  # cards that close a meld, a new meld of the rank after it; 0: no cap
R_SEVENS = 113  # 1: sevens are melded without wilds and a canasta of sevens is a kind of its own
R_SEVENS_BAN = 114  # 1: no seven discarded until every side has a sevens canasta, never as the last card
R_WILD_SPLIT = 115  # 1: a wild canasta is small or big by its twos and jokers (Boat R-35); 0: one wild kind
R_GO_KINDS = 116  # canasta kinds (bits 1 << CK_*) a side needs one of each of to go out (Pennies, Railroad)
R_RED3_NEG_SEVENS = 117  # 1: red threes count negative for a side without a sevens canasta (Pennies)
R_SEQ = 118  # 1: Buraco's game (§3.10): sets and same-suit sequences, the whole pile taken, knocks to the morto
R_PACKET_SIDE = 119  # 1: one face-down packet per side, not per player (Buraco's mortos, R-136)
R_THREES_PLAIN = 120  # 1: threes are ordinary cards: no red-three area, sets of threes (Buraco, §3.10 setup 6)
R_MORTO_PEN = 121  # points a side loses for a morto it never took, or took by an indirect knock too late
R_LEN = 122
PPM = 1_000_000  # a probability in the packed rules is in parts per million (R_EXACT_PPM)
