//! The word lists of general English that the shape of a fact is checked
//! against ([`super::shape`], [`super::vague`] and their neighbours): what
//! evaluates, what points at nothing, what carries no content. Lists only;
//! no logic beyond looking a word up.

/// A word list written as one string: compact to read, checked word by
/// word.
pub(super) struct Words(pub(super) &'static str);

impl Words {
    pub(super) fn contains(&self, w: &&str) -> bool {
        self.0.split_whitespace().any(|x| x == *w)
    }
}

/// Adjectives that evaluate or report a mood rather than state a fact.
pub(super) const EVALUATIVE: Words = Words(
    "great good awesome amazing cool fun nice lovely beautiful perfect incredible \
     wonderful fantastic special important classic best better worth tough hard easy \
     proud lucky blessed grateful thankful happy glad excited thrilled stoked pumped \
     motivated inspired amazed impressed sure ready fine okay ok calm safe positive \
     strong crazy wild insane epic rad sweet cute adorable awful terrible bad sad fab \
     fabulous brilliant magical unforgettable meaningful rewarding fulfilling powerful \
     stunning gorgeous huge big real true right wrong interesting exciting busy tired \
     overwhelmed blown touched moved relieved honored honoured humbled appreciative \
     supportive kind hopeful keen refreshing refreshed optimistic nervous scared worried \
     anxious stressed confident determined eager delighted pleased comfortable emotional \
     overjoyed ecstatic bummed upset disappointed heartbroken key same different able \
     free welcome",
);

/// Words that point at nothing in particular.
pub(super) const VAGUE: Words = Words(
    "something anything everything nothing stuff things thing it this that these those \
     while ages lots lot tons bit way ways vibe vibes feeling feelings mood time times \
     moment moments experience day one ones kind sort others everyone someone somebody \
     anyone people much more most best rest all both here there now then again too also \
     still even forward back up out off away around together difference impact change \
     changes fan fans journey far emotions part ton options option book books memory \
     memories world event events hard place places skills skill plans some any few \
     many several new own other another every each certain various different unknown",
);

/// Words that carry no content of their own in a complement.
pub(super) const FUNCTION: Words = Words(
    "a an the to of in on at for with from by about as and or but so than if when while \
     what how who which their his her its our my your them him me us very really super \
     pretty quite totally absolutely just such ever always never not no being be been \
     into onto over under like can could will would should might must do does did is are \
     was were am has have had get got gets getting",
);

/// Verbs that state a stance or effort, not an event: their gerunds and
/// bare forms are no content ("hoping for the best", "trying to stay").
pub(super) const EMPTY_VERBS: Words = Words(
    "be have get do go make hope wish think try want need know see look seem feel keep \
     stay let take help give show come say tell love like enjoy mean wonder guess agree \
     power appreciate hear share check start continue",
);

/// Modals that say what may, should or would be, not what is.
pub(super) const NOT_SO: Words =
    Words("could should would might may must couldn't shouldn't wouldn't mightn't ought");

/// Openings of a subordinate clause cut loose from its main clause
/// ("Even though Maria's is small.").
pub(super) const LOOSE: Words = Words("even although though especially whereas unless which");

/// Openings of a subordinate clause that may lead into a main clause
/// ("Since Joanna is lactose intolerant, Joanna is trying ..."); with one
/// verb only it is the subordinate clause alone ("Since Caroline was 17").
pub(super) const SUBORDINATING: Words =
    Words("since because cause when while as after before if once");

/// Copulas and verbs of seeming, after which an adjective evaluates.
pub(super) const COPULAS: Words = Words(
    "is was are were am be been being feels felt feel seems seemed looks looked sounds \
     sounded gets got became becomes stays stayed remains remained",
);

/// Common nouns and gerunds that open generic statements with a capital
/// ("Family is everything", "Music brings people together"): not names.
pub(super) const GENERIC_SUBJECTS: Words = Words(
    "family life music art nature love friendship friends people kids children parenting \
     parents work school time food travel health happiness fun everything nothing \
     something everyone someone tons lots home sports books reading writing painting \
     dancing running cooking hiking traveling travelling exercise community support \
     change growth success nobody anyone pets animals dogs cats today tomorrow yesterday \
     tonight last next together happy glad show check look here there all both each every \
     one",
);

/// Opening prepositions of an adverbial before the subject ("On 3 May
/// 2023, ...", "Apart from meetings, ...").
pub(super) const LEADING: Words =
    Words("on in during since after before while apart besides at for over around by until");

/// Months, weekdays, seasons and parts of the day: words of when, never
/// of where or who.
pub(super) const CALENDAR: Words = Words(
    "january february march april may june july august september october november \
     december monday tuesday wednesday thursday friday saturday sunday weekend summer \
     winter spring fall autumn sunset sunrise dawn dusk night noon midnight morning \
     evening afternoon",
);
