/* present_304_text.c: 304's own sentences in each language (its presentation's
 * text_game): why the engine refused an action, by enum g304_err, and what
 * the table is doing in each phase ({phase}), by enum g304_phase. Six-player
 * 304 shares them. English first; Tamil and Sinhala may leave an entry NULL
 * or "" (the English is said). */
#include "g304.h"
#include "text_lang.h"
#include "present.h"

/*
 * One template per refusal code. A template may hold one of these
 * placeholders, each standing for parameter a of the g304_result:
 *   {seat}   the name of seat a        {n}      a as a number
 *   {suit}   the suit a, in words      {card}   the card code of a
 *   {phase}  what the table is doing in phase a ("during play")
 * and {m}, parameter b as a number (a table size's bid limit or throw-in
 * threshold: 200 and 15 in 304, docs/GAMES.md S21 for 504 and 904).
 * Templates are not printf formats, so a name or a stray '%' can never be
 * read as one. The table below is generated from G304_ERR_LIST: a code the
 * engine adds without a REFUSAL_ line here stops the build.
 */
#define REFUSAL_OK "that is allowed"
#define REFUSAL_BAD_SEAT "there is no such seat at this table"
#define REFUSAL_BAD_ACTION "that is not something you can do in 304"
#define REFUSAL_MATCH_OVER "the match is over"
#define REFUSAL_NO_DEAL "no deal is in play: the last one has ended and the next is not dealt yet"
#define REFUSAL_NOT_YOUR_TURN "it is not your turn: waiting for {seat}"
#define REFUSAL_WRONG_PHASE "that cannot be done {phase}"
#define REFUSAL_REJECT_NOT_FIRST \
	"only {seat}, the first to bid, may throw in the cards for a redeal"
#define REFUSAL_REJECT_TOO_LATE \
	"a redeal may be asked for only before your first bid or pass"
#define REFUSAL_REJECT_POINTS \
	"your four cards are worth {n} points; a redeal needs fewer than {m}"
#define REFUSAL_BID_NOT_MULTIPLE \
	"you cannot bid {n}: bids go up in tens (in fives from {m}" \
	" where the table allows fives)"
#define REFUSAL_BID_TOO_LOW "the lowest bid allowed here is {n}"
#define REFUSAL_BID_NOT_HIGHER "a bid must be higher than {n}"
#define REFUSAL_BID_TOO_HIGH \
	"no bid may be over {n}; above that there is only pcc, with eight cards"
#define REFUSAL_BID_SECOND_TURN \
	"on your second turn a bid must be {m} or more"
#define REFUSAL_BID_OVER_PARTNER \
	"a bid under {m} is not allowed while your partner holds the highest bid"
#define REFUSAL_SINGLE_ONCE \
	"at this table you may bid only once, unless you make the first bid of " \
	"{m} or more"
#define REFUSAL_SINGLE_PARTNER \
	"at this table you may not bid over your partner, unless you make the first bid of " \
	"{m} or more"
#define REFUSAL_PCC_FOUR "pcc may be bid only in the eight-card bidding"
#define REFUSAL_BID8_PARTNER \
	"your partner holds the highest eight-card bid: you must pass"
#define REFUSAL_ASK_EIGHT "you cannot ask your partner in the eight-card bidding"
#define REFUSAL_ASK_ANSWERING "your partner asked you to speak: bid or pass"
#define REFUSAL_MUST_OPEN \
	"you speak first at this table size and must open the bidding: bid {n} or more"
#define REFUSAL_ASK_PARTNER_HIGH \
	"your partner already holds the highest bid: bid or pass yourself"
#define REFUSAL_NOT_TRUMPER "only the trumper ({seat}) may do that"
#define REFUSAL_TRUMP_NOT_FIRST4 \
	"the trump card must be one of your first four cards, and {card} is not"
#define REFUSAL_NOT_IN_HAND "you do not hold {card}"
#define REFUSAL_OPEN_TOO_LATE "the game can be opened only before the first card is played"
#define REFUSAL_ALREADY_OPEN "the game is already open"
#define REFUSAL_FOLLOW_SUIT "you must follow suit: you hold {suit}"
#define REFUSAL_TRUMP_CARD_RESERVED \
	"the trump card may only be played to cut, or as your last card"
#define REFUSAL_CUT_WITH_TRUMP_CARD \
	"while the trump card lies on the table you may cut only with it; " \
	"to throw, play a card that is not a trump"
#define REFUSAL_NO_TRUMP_LEAD_FIRST \
	"you may not lead a trump to the first trick of a closed game " \
	"(you sit after the dealer); open the game to lead trumps"
#define REFUSAL_EXHAUSTED_TRUMPS \
	"exhausted trumps: you must keep leading trumps while you hold them"
#define REFUSAL_SITTING_OUT "you sit out this deal: your partner bid partner close caps"
#define REFUSAL_SPOILT_NOT_IN_PLAY \
	"spoilt trumps can be called only during play, once all eight cards are dealt"
#define REFUSAL_CAPS_OFF "caps calls are off at this table"
#define REFUSAL_CAPS_PCC \
	"there is no caps call in partner close caps: winning every trick is the bid itself"
#define REFUSAL_CAPS_NOT_YOURS "at this table only the trumper's team may call caps"
#define REFUSAL_CAPS_CALLED "{seat} has already called caps"
#define REFUSAL_CAPS_ORDER \
	"a caps call must list each of your {n} cards once, in the order you will play them"
#define REFUSAL_CAPS_NEXT "you called caps: your next card must be {card}, as your order says"

static const char *const text_en_refusals[G304_ERR_COUNT] = {
#define X(n, s) [G304_ERR_##n] = REFUSAL_##n,
	G304_ERR_LIST(X)
#undef X
};

/* What the table is doing in each phase, to end "that cannot be done ...". */
#define PHASE_DEAL "between deals"
#define PHASE_BID4 "during the four-card bidding"
#define PHASE_TRUMP4 "while the trump card is being chosen"
#define PHASE_BID8 "during the eight-card bidding"
#define PHASE_TRUMP8 "while the new trump card is being chosen"
#define PHASE_PLAY "during play"
#define PHASE_OVER "now that the match is over"

static const char *const text_en_phases[G304_PHASE_COUNT] = {
#define X(n, s) [G304_PHASE_##n] = PHASE_##n,
	G304_PHASE_LIST(X)
#undef X
};

static const char *const text_ta_refusals[G304_ERR_COUNT] = {
	[G304_ERR_OK] = "அது அனுமதிக்கப்பட்டது",
	[G304_ERR_BAD_SEAT] = "இந்த மேசையில் அப்படி ஒரு இருக்கை இல்லை",
	[G304_ERR_BAD_ACTION] = "304-இல் அதைச் செய்ய முடியாது",
	[G304_ERR_MATCH_OVER] = "போட்டி முடிந்துவிட்டது",
	[G304_ERR_NO_DEAL] = "எந்தச் சுற்றும் நடக்கவில்லை: கடைசிச் சுற்று முடிந்தது, அடுத்தது இன்னும் போடப்படவில்லை",
	[G304_ERR_NOT_YOUR_TURN] = "உங்கள் முறை இல்லை: இப்போது {seat}",
	[G304_ERR_WRONG_PHASE] = "{phase} அதைச் செய்ய முடியாது",
	[G304_ERR_REJECT_NOT_FIRST] = "முதலில் ஏலம் கேட்கும் {seat} மட்டுமே சீட்டுகளைத் திருப்பிக் கொடுத்து மீண்டும் போடச் சொல்லலாம்",
	[G304_ERR_REJECT_TOO_LATE] = "உங்கள் முதல் ஏலம் அல்லது பாஸுக்கு முன் மட்டுமே மீண்டும் போடச் சொல்லலாம்",
	[G304_ERR_REJECT_POINTS] = "உங்கள் நான்கு சீட்டுகளின் மதிப்பு {n} புள்ளி; மீண்டும் போட {m} புள்ளிக்குக் குறைவாக இருக்க வேண்டும்",
	[G304_ERR_BID_NOT_MULTIPLE] = "{n} கேட்க முடியாது: ஏலம் பத்துப் பத்தாக ஏறும் (ஐந்துகளை அனுமதிக்கும் மேசையில் {m}-இலிருந்து ஐந்து ஐந்தாக)",
	[G304_ERR_BID_TOO_LOW] = "இங்கே குறைந்த ஏலம் {n}",
	[G304_ERR_BID_NOT_HIGHER] = "ஏலம் {n}-ஐ விட அதிகமாக இருக்க வேண்டும்",
	[G304_ERR_BID_TOO_HIGH] = "எந்த ஏலமும் {n}-ஐத் தாண்டக்கூடாது; அதற்கு மேல் எட்டுச் சீட்டுடன் pcc மட்டுமே",
	[G304_ERR_BID_SECOND_TURN] = "இரண்டாம் முறையில் ஏலம் {m} அல்லது அதற்கு மேல் இருக்க வேண்டும்",
	[G304_ERR_BID_OVER_PARTNER] = "கூட்டாளியிடம் அதிக ஏலம் இருக்கும்போது {m}-க்குக் கீழ் கேட்க முடியாது",
	[G304_ERR_SINGLE_ONCE] = "இந்த மேசையில் ஒருமுறை மட்டுமே கேட்கலாம், {m} அல்லது மேல் முதல் ஏலமாகக் கேட்டால் தவிர",
	[G304_ERR_SINGLE_PARTNER] = "இந்த மேசையில் கூட்டாளிக்கு மேல் கேட்க முடியாது, {m} அல்லது மேல் முதல் ஏலமாகக் கேட்டால் தவிர",
	[G304_ERR_PCC_FOUR] = "pcc எட்டுச் சீட்டு ஏலத்தில் மட்டுமே கேட்கலாம்",
	[G304_ERR_BID8_PARTNER] = "எட்டுச் சீட்டு ஏலத்தில் அதிக ஏலம் உங்கள் கூட்டாளியிடம்: நீங்கள் பாஸ் செய்ய வேண்டும்",
	[G304_ERR_ASK_EIGHT] = "எட்டுச் சீட்டு ஏலத்தில் கூட்டாளியைக் கேட்கச் சொல்ல முடியாது",
	[G304_ERR_ASK_ANSWERING] = "உங்கள் கூட்டாளி உங்களைப் பேசச் சொன்னார்: கேளுங்கள் அல்லது பாஸ்",
	[G304_ERR_MUST_OPEN] = "இந்த அளவு மேசையில் முதலில் பேசும் நீங்கள் ஏலத்தைத் தொடங்க வேண்டும்: {n} அல்லது மேல் கேளுங்கள்",
	[G304_ERR_ASK_PARTNER_HIGH] = "அதிக ஏலம் ஏற்கனவே உங்கள் கூட்டாளியிடம்: நீங்களே கேளுங்கள் அல்லது பாஸ்",
	[G304_ERR_NOT_TRUMPER] = "துருப்புக்காரர் ({seat}) மட்டுமே அதைச் செய்யலாம்",
	[G304_ERR_NOT_IN_HAND] = "உங்களிடம் {card} இல்லை",
	[G304_ERR_OPEN_TOO_LATE] = "முதல் சீட்டு போடப்படுமுன் மட்டுமே ஆட்டத்தைத் திறக்கலாம்",
	[G304_ERR_ALREADY_OPEN] = "ஆட்டம் ஏற்கனவே திறந்துள்ளது",
	[G304_ERR_FOLLOW_SUIT] = "அதே இனம் போட வேண்டும்: உங்களிடம் {suit} உண்டு",
	[G304_ERR_TRUMP_CARD_RESERVED] = "துருப்புச் சீட்டை வெட்டுவதற்கு, அல்லது உங்கள் கடைசிச் சீட்டாக மட்டுமே போடலாம்",
	[G304_ERR_CUT_WITH_TRUMP_CARD] = "துருப்புச் சீட்டு மேசையில் இருக்கும்வரை அதனால் மட்டுமே வெட்டலாம்; வெட்டாமல் போட, துருப்பு அல்லாத சீட்டைப் போடுங்கள்",
	[G304_ERR_NO_TRUMP_LEAD_FIRST] = "மூடிய ஆட்டத்தின் முதல் கையில் துருப்பை முதலில் போட முடியாது (நீங்கள் போடுபவருக்கு அடுத்தவர்); துருப்பைப் போட ஆட்டத்தைத் திறவுங்கள்",
	[G304_ERR_EXHAUSTED_TRUMPS] = "exhausted trumps: கையில் துருப்பு உள்ளவரை துருப்பையே முதலில் போட வேண்டும்",
	[G304_ERR_SITTING_OUT] = "இந்தச் சுற்றில் நீங்கள் ஆடவில்லை: உங்கள் கூட்டாளி partner close caps கேட்டார்",
	[G304_ERR_SPOILT_NOT_IN_PLAY] = "எட்டுச் சீட்டுகளும் போடப்பட்ட பின், ஆட்டத்தின்போது மட்டுமே spoilt trumps சொல்லலாம்",
	[G304_ERR_CAPS_OFF] = "இந்த மேசையில் caps சொல்ல முடியாது",
	[G304_ERR_CAPS_PCC] = "partner close caps-இல் caps சொல்வது இல்லை: எல்லாக் கைகளையும் எடுப்பதே அந்த ஏலம்",
	[G304_ERR_CAPS_NOT_YOURS] = "இந்த மேசையில் துருப்புக்காரரின் அணி மட்டுமே caps சொல்லலாம்",
	[G304_ERR_CAPS_CALLED] = "{seat} ஏற்கனவே caps சொல்லிவிட்டார்",
	[G304_ERR_CAPS_ORDER] = "caps சொல்லும்போது உங்கள் {n} சீட்டுகளையும் ஒவ்வொன்றாக, போடும் வரிசையில் சொல்ல வேண்டும்",
	[G304_ERR_CAPS_NEXT] = "நீங்கள் caps சொன்னீர்கள்: உங்கள் வரிசைப்படி அடுத்த சீட்டு {card}",
};

/* What the table is doing in each phase; each begins "{phase} அதைச் செய்ய முடியாது". */
static const char *const text_ta_phases[G304_PHASE_COUNT] = {
	[G304_PHASE_DEAL] = "சுற்றுகளுக்கு இடையில்",
	[G304_PHASE_BID4] = "நான்கு சீட்டு ஏலத்தின்போது",
	[G304_PHASE_TRUMP4] = "துருப்புச் சீட்டு தெரிவுசெய்யப்படும்போது",
	[G304_PHASE_BID8] = "எட்டுச் சீட்டு ஏலத்தின்போது",
	[G304_PHASE_TRUMP8] = "புதிய துருப்புச் சீட்டு தெரிவுசெய்யப்படும்போது",
	[G304_PHASE_PLAY] = "ஆட்டத்தின்போது",
	[G304_PHASE_OVER] = "போட்டி முடிந்த பின்",
};

static const char *const text_si_refusals[G304_ERR_COUNT] = {
	[G304_ERR_OK] = "එයට ඉඩ තියෙනවා",
	[G304_ERR_BAD_SEAT] = "මේ මේසයේ එහෙම අසුනක් නැහැ",
	[G304_ERR_BAD_ACTION] = "ඒක 304 හි කරන්න පුළුවන් දෙයක් නොවෙයි",
	[G304_ERR_MATCH_OVER] = "තරගය ඉවරයි",
	[G304_ERR_NO_DEAL] = "දැන් වටයක් යන්නේ නැහැ: අන්තිම එක ඉවරයි, ඊළඟ එක තාම බෙදලා නැහැ",
	[G304_ERR_NOT_YOUR_TURN] = "ඔබේ වාරය නොවෙයි: බලාගෙන ඉන්නේ {seat}",
	[G304_ERR_WRONG_PHASE] = "{phase} ඒක කරන්න බැහැ",
	[G304_ERR_REJECT_NOT_FIRST] = "නැවත බෙදීමට කාඩ් ආපසු දාන්න පුළුවන් මුලින්ම ලංසු තබන {seat} ට පමණයි",
	[G304_ERR_REJECT_TOO_LATE] = "නැවත බෙදීම ඉල්ලන්න පුළුවන් ඔබේ පළමු ලංසුවට හෝ පාස් එකට කලින් පමණයි",
	[G304_ERR_REJECT_POINTS] = "ඔබේ කාඩ් හතරේ වටිනාකම ලකුණු {n}; නැවත බෙදීමට {m} ට අඩු වෙන්න ඕනේ",
	[G304_ERR_BID_NOT_MULTIPLE] = "{n} ලංසු තබන්න බැහැ: ලංසු දහයෙන් දහයට (මේසය fives ඉඩ දෙනවා නම් {m} සිට පහෙන් පහට)",
	[G304_ERR_BID_TOO_LOW] = "මෙහි අඩුම ලංසුව {n}",
	[G304_ERR_BID_NOT_HIGHER] = "ලංසුව {n} ට වඩා වැඩි වෙන්න ඕනේ",
	[G304_ERR_BID_TOO_HIGH] = "කිසිම ලංසුවක් {n} ට වැඩි වෙන්න බැහැ; ඊට උඩින් තියෙන්නේ කාඩ් අටෙන් pcc පමණයි",
	[G304_ERR_BID_SECOND_TURN] = "ඔබේ දෙවෙනි වාරයේ ලංසුව {m} හෝ වැඩි වෙන්න ඕනේ",
	[G304_ERR_BID_OVER_PARTNER] = "ඔබේ සහකරු ළඟ ඉහළම ලංසුව තියෙද්දී {m} ට අඩු ලංසු තබන්න බැහැ",
	[G304_ERR_SINGLE_ONCE] = "මේ මේසයේ ලංසු තබන්න පුළුවන් එක පාරයි, {m} හෝ වැඩි පළමු ලංසුව ඔබ තබනවා නම් මිසක්",
	[G304_ERR_SINGLE_PARTNER] = "මේ මේසයේ ඔබේ සහකරුට උඩින් ලංසු තබන්න බැහැ, {m} හෝ වැඩි පළමු ලංසුව ඔබ තබනවා නම් මිසක්",
	[G304_ERR_PCC_FOUR] = "pcc කියන්න පුළුවන් කාඩ් අටේ ලංසුවල පමණයි",
	[G304_ERR_BID8_PARTNER] = "කාඩ් අටේ ඉහළම ලංසුව ඔබේ සහකරු ළඟ: ඔබ පාස් කරන්න ඕනේ",
	[G304_ERR_ASK_EIGHT] = "කාඩ් අටේ ලංසුවල සහකරුට ලංසු භාර දෙන්න බැහැ",
	[G304_ERR_ASK_ANSWERING] = "ඔබේ සහකරු ඔබට කතා කරන්න කිව්වා: ලංසු තබන්න නැත්නම් පාස් කරන්න",
	[G304_ERR_MUST_OPEN] = "මේ ප්‍රමාණයේ මේසයේ මුලින්ම කතා කරන ඔබ ලංසුව පටන් ගන්න ඕනේ: {n} හෝ වැඩි ලංසුවක් තබන්න",
	[G304_ERR_ASK_PARTNER_HIGH] = "ඉහළම ලංසුව දැනටමත් ඔබේ සහකරු ළඟ: ඔබම ලංසු තබන්න නැත්නම් පාස් කරන්න",
	[G304_ERR_NOT_TRUMPER] = "ඒක කරන්න පුළුවන් තුරුම්පුකරුට ({seat}) පමණයි",
	[G304_ERR_NOT_IN_HAND] = "{card} ඔබ ළඟ නැහැ",
	[G304_ERR_OPEN_TOO_LATE] = "ක්‍රීඩාව විවෘත කරන්න පුළුවන් පළමු කාඩ් එක ගහන්න කලින් පමණයි",
	[G304_ERR_ALREADY_OPEN] = "ක්‍රීඩාව දැනටමත් විවෘතයි",
	[G304_ERR_FOLLOW_SUIT] = "ගැහූ වර්ගයෙන්ම දාන්න ඕනේ: ඔබ ළඟ {suit} තියෙනවා",
	[G304_ERR_TRUMP_CARD_RESERVED] = "තුරුම්පු කාඩ් එක ගහන්න පුළුවන් කපන්න, නැත්නම් ඔබේ අන්තිම කාඩ් එක ලෙස පමණයි",
	[G304_ERR_CUT_WITH_TRUMP_CARD] = "තුරුම්පු කාඩ් එක මේසයේ තියෙද්දී කපන්න පුළුවන් ඒකෙන් පමණයි; වෙන කාඩ් දාන්න නම්, තුරුම්පු නොවන කාඩ් එකක් ගහන්න",
	[G304_ERR_NO_TRUMP_LEAD_FIRST] = "වැසූ ක්‍රීඩාවක පළමු අතට තුරුම්පුවකින් පටන් ගන්න බැහැ (ඔබ ඉන්නේ බෙදන්නාට පස්සේ); තුරුම්පුවලින් පටන් ගන්න ක්‍රීඩාව විවෘත කරන්න",
	[G304_ERR_EXHAUSTED_TRUMPS] = "exhausted trumps: තුරුම්පු ළඟ තියෙනකම් තුරුම්පුවලින්ම පටන් ගන්න ඕනේ",
	[G304_ERR_SITTING_OUT] = "ඔබ මේ වටයෙන් පිටත: ඔබේ සහකරු partner close caps කිව්වා",
	[G304_ERR_SPOILT_NOT_IN_PLAY] = "spoilt trumps කියන්න පුළුවන් කාඩ් අටම බෙදුවාට පස්සේ, ක්‍රීඩාව අතරේ පමණයි",
	[G304_ERR_CAPS_OFF] = "මේ මේසයේ caps කියන්න බැහැ",
	[G304_ERR_CAPS_PCC] = "partner close caps හි caps කීමක් නැහැ: හැම අතක්ම ගැනීම ලංසුවමයි",
	[G304_ERR_CAPS_NOT_YOURS] = "මේ මේසයේ caps කියන්න පුළුවන් තුරුම්පුකරුගේ පැත්තට පමණයි",
	[G304_ERR_CAPS_CALLED] = "{seat} දැනටමත් caps කිව්වා",
	[G304_ERR_CAPS_ORDER] = "caps කියද්දී ඔබේ කාඩ් {n}ම එක වරක් බැගින්, ගහන පිළිවෙලට දෙන්න ඕනේ",
	[G304_ERR_CAPS_NEXT] = "ඔබ caps කිව්වා: ඔබේ පිළිවෙල අනුව ඊළඟ කාඩ් එක {card} වෙන්න ඕනේ",
};

static const char *const text_si_phases[G304_PHASE_COUNT] = {
	[G304_PHASE_DEAL] = "වට අතරේ",
	[G304_PHASE_BID4] = "කාඩ් හතරේ ලංසු අතරේ",
	[G304_PHASE_TRUMP4] = "තුරුම්පු කාඩ් එක තෝරද්දී",
	[G304_PHASE_BID8] = "කාඩ් අටේ ලංසු අතරේ",
	[G304_PHASE_TRUMP8] = "අලුත් තුරුම්පු කාඩ් එක තෝරද්දී",
	[G304_PHASE_PLAY] = "ක්‍රීඩාව අතරේ",
	[G304_PHASE_OVER] = "තරගය ඉවර නිසා දැන්",
};

const text_game present_304_words = {
	{ text_en_refusals, text_ta_refusals, text_si_refusals },
	{ text_en_phases, text_ta_phases, text_si_phases },
	G304_ERR_COUNT, G304_PHASE_COUNT,
};
