//! The shapes of what follows a comma or "and" inside a sentence, for
//! [`super::clauses`] to decide whether it is a new clause: a verb in a
//! list of verb phrases, an infinitive or progressive going on, an
//! adjective after a linking verb, an object, an imperative to the
//! listener, and where a new subject opens one ([`subject_at`]). Word
//! tests only; the splitting itself is in `clauses`.

use super::clauses::{bare, capitalised, is_verbish, SUBJECTS};
use super::lexicon::{verb, VerbForm, AUXILIARIES};

/// Whether a clause is progressive ("I'm learning French"): a gerund
/// after it may share its subject and "be".
pub(super) fn progressive(clause: &[&str]) -> bool {
    let words: Vec<String> = clause.iter().map(|w| bare(w)).collect();
    words.iter().enumerate().any(|(i, a)| {
        let be = matches!(a.as_str(), "am" | "is" | "are" | "was" | "were")
            || ["'m", "'re", "'s"].iter().any(|c| a.ends_with(c));
        // "I'm currently reading": adverbs may come between
        be && words[i + 1..]
            .iter()
            .take(3)
            .find(|w| !w.ends_with("ly") && !matches!(w.as_str(), "just" | "still" | "also"))
            .is_some_and(|w| matches!(verb(w), Some((_, VerbForm::Gerund))))
    })
}

/// Whether the clause's last verb is an infinitive or follows a modal
/// ("I want to travel", "I can cook"): a base verb after "and" continues
/// it rather than stating something new.
pub(super) fn ends_in_infinitive(clause: &[&str]) -> bool {
    const MODALS: &[&str] = &[
        "to", "can", "could", "will", "would", "should", "might", "must", "gonna", "wanna", "may",
    ];
    // "a great way to chill and be creative": a word right after "to" is
    // a verb, known to the lexicon or not
    if clause.len() >= 2 && bare(clause[clause.len() - 2]) == "to" {
        return true;
    }
    // "to slow down and appreciate ...": a verb and its particle
    let n = clause.len();
    if n >= 3
        && bare(clause[n - 3]) == "to"
        && matches!(
            bare(clause[n - 1]).as_str(),
            "down" | "up" | "out" | "off" | "back" | "in" | "over" | "away"
        )
    {
        return true;
    }
    // ("to join the meeting": after a determiner a verb's form is a noun)
    let noun = |k: usize| {
        k > 0
            && matches!(
                bare(clause[k - 1]).as_str(),
                "a" | "an"
                    | "the"
                    | "my"
                    | "our"
                    | "your"
                    | "his"
                    | "her"
                    | "their"
                    | "this"
                    | "that"
            )
    };
    let Some(last) = (0..clause.len())
        .rev()
        .find(|&k| is_verbish(clause[k]) && !noun(k))
    else {
        return false;
    };
    // ("it helps me relax and increase my flexibility": a bare verb after
    // "help", "let" or "make" and its object)
    let causative = last >= 2
        && matches!(
            bare(clause[last - 2]).as_str(),
            "help" | "helps" | "helped" | "let" | "lets" | "make" | "makes" | "made"
        )
        && matches!(
            bare(clause[last - 1]).as_str(),
            "me" | "us" | "him" | "her" | "them" | "you"
        );
    causative || (last > 0 && MODALS.contains(&bare(clause[last - 1]).as_str()))
}

/// Verbs that link a subject to an adjective ("I'm tired", "feeling
/// hopeful").
const LINKING: &[&str] = &[
    "am", "is", "are", "was", "were", "be", "been", "being", "feel", "feels", "feeling", "felt",
    "seem", "seems", "seemed", "get", "gets", "getting", "got", "look", "looks", "looking",
    "become", "became", "stay", "stayed", "i'm", "we're", "you're", "he's", "she's", "it's",
    "they're",
];

/// Words that may stand between a linking verb and its adjective.
const DEGREE: &[&str] = &[
    "so", "very", "really", "super", "pretty", "quite", "totally", "too",
];

/// Whether `body` ends in an adjective after a linking verb ("I'm feeling
/// hopeful", "I was so tired"): what "and" adds then is an adjective too.
pub(super) fn after_linking_adjective(body: &[&str]) -> bool {
    let Some((last, before)) = body.split_last() else {
        return false;
    };
    if last.ends_with([',', ';']) || verb(&bare(last)).is_some() {
        return false;
    }
    let mut rest = before;
    while let Some((w, more)) = rest.split_last() {
        if !DEGREE.contains(&bare(w).as_str()) {
            break;
        }
        rest = more;
    }
    rest.last()
        .is_some_and(|w| LINKING.contains(&bare(w).as_str()))
}

/// Whether `words[i]`, after a comma, is a verb in a list of verb phrases
/// that "and" (or "or") closes with a verb of the same form: "cook dinner,
/// hike, and play cards", "hiked, swam, and had a picnic".
pub(super) fn verb_list_item(words: &[&str], i: usize) -> bool {
    // the form of the item at `i`: each item of the list has it ("hiked,
    // swam, and had a picnic")
    let form = |w: &str| {
        let b = bare(w);
        match b.as_str() {
            "have" | "do" => Some(VerbForm::Base),
            "had" | "did" => Some(VerbForm::Past),
            _ if b == "be" || AUXILIARIES.contains(&b.as_str()) => None,
            _ => verb(&b)
                .map(|(_, f)| f)
                .filter(|f| matches!(f, VerbForm::Base | VerbForm::Past)),
        }
    };
    let Some(here) = form(words[i]) else {
        return false;
    };
    let base = |w: &str| form(w) == Some(here);
    for j in i + 1..words.len().saturating_sub(1) {
        if subject_at(words, j) > 0 {
            return false;
        }
        if matches!(bare(words[j]).as_str(), "and" | "or")
            && words[j - 1].ends_with(',')
            && base(words[j + 1])
        {
            return true;
        }
    }
    false
}

/// Whether `w` opens a verb's object: a pronoun, a pointer, a possessive
/// or an article ("walk him", "love the beach").
pub(super) fn opens_object(w: &str) -> bool {
    matches!(
        bare(w).as_str(),
        "it" | "them"
            | "him"
            | "her"
            | "me"
            | "us"
            | "you"
            | "this"
            | "that"
            | "these"
            | "those"
            | "my"
            | "your"
            | "his"
            | "their"
            | "our"
            | "a"
            | "an"
            | "the"
    )
}

/// "look at ...", "check out ...", "imagine ...": a bare verb that turns
/// the listener's attention to something.
pub(super) fn attention_imperative(words: &[&str]) -> bool {
    let next = words.get(1).map(|w| bare(w));
    match words.first().map(|w| bare(w)).as_deref() {
        Some("look") => next.as_deref() == Some("at"),
        Some("check") => next.as_deref() == Some("out"),
        Some("imagine" | "guess") => true,
        _ => false,
    }
}

/// Whether the first verb of `body` is a bare present form ("I teach
/// and ..."), not a past, a participle or an auxiliary ("I've put ...").
pub(super) fn first_verb_is_base(body: &[&str]) -> bool {
    body.iter().find(|w| is_verbish(w)).is_some_and(|w| {
        let b = bare(w);
        !AUXILIARIES.contains(&b.as_str())
            && !["'m", "'re", "'s", "'ve", "'ll", "'d"]
                .iter()
                .any(|c| b.ends_with(c))
            && matches!(verb(&b), Some((_, VerbForm::Base)))
    })
}

/// Whether `words[i..]` opens with a gerund phrase that is the subject of
/// a finite verb: "working with them would be cool", "combining them lets
/// me show my creativity". After a comma, "so" or "but" it is a clause of
/// its own, not more of the one before ("I've always liked Under Armour,
/// working with them would be really cool").
///
/// Never after "and" ("I've learned that this biz is no cakewalk and
/// having confidence is important" goes on with "that"), nor in a list
/// of gerunds ("looking into politics, talking to leaders, and getting to
/// know ..."), nor when the clause before has no finite verb ("Hiking ...
/// and camping ... relaxes me" is one subject), nor when "it" (or "this",
/// "that") stands right before the verb ("hoping it helps" hopes a
/// clause). A word the lexicon lacks reads as a gerund by its -ing only
/// right after a comma ("so interesting and blew me away" is an
/// adjective).
pub(super) fn gerund_subject(body: &[&str], words: &[&str], i: usize) -> bool {
    let (Some(first), Some(prev)) = (words.get(i), i.checked_sub(1).map(|p| words[p])) else {
        return false;
    };
    let comma = prev.ends_with(',');
    if !comma && !matches!(bare(prev).as_str(), "so" | "but") {
        return false;
    }
    let b = bare(first);
    let known = matches!(verb(&b), Some((_, VerbForm::Gerund)));
    // (not "something", an evaluative adjective or an -ing noun)
    let unknown = comma
        && verb(&b).is_none()
        && b.len() >= 6
        && b.ends_with("ing")
        && !b.ends_with("thing")
        && !super::words::EVALUATIVE.contains(&b.as_str())
        && !matches!(b.as_str(), "morning" | "evening" | "during" | "wedding");
    if !(known || unknown) || first.ends_with(',') {
        return false;
    }
    // the clause before: a finite verb, and no gerund after its last one
    let Some(last) = body.iter().rposition(|w| finite(w)) else {
        return false;
    };
    if body[last + 1..]
        .iter()
        .any(|w| matches!(verb(&bare(w)), Some((_, VerbForm::Gerund))))
    {
        return false;
    }
    for (k, w) in words.iter().enumerate().skip(i + 1).take(6) {
        let b = bare(w);
        // "working so hard I got tired": a subject of its own
        if matches!(b.as_str(), "i" | "we" | "he" | "she" | "they" | "you")
            || subject_at(words, k) > 0
        {
            return false;
        }
        // "my dreams", "the needs": after a determiner a word in -s is a noun
        let determined = matches!(
            bare(words[k - 1]).as_str(),
            "my" | "your" | "our" | "their" | "his" | "her" | "its" | "the" | "a" | "an" | "of"
        );
        if finite(w) && !determined {
            return !matches!(bare(words[k - 1]).as_str(), "it" | "this" | "that");
        }
        if w.ends_with([',', '.', '!', '?', ';']) {
            return false;
        }
    }
    false
}

/// Whether `w` is a finite verb: an auxiliary, a contracted one ("I'm";
/// not "'s", which is mostly a possessive), or a verb in its third-person
/// or past form.
pub(super) fn finite(w: &str) -> bool {
    let b = bare(w);
    (AUXILIARIES.contains(&b.as_str()) && b != "used")
        || ["'m", "'re", "'ve", "'ll", "'d"]
            .iter()
            .any(|c| b.ends_with(c) && b.len() > c.len())
        || matches!(verb(&b), Some((_, VerbForm::Third | VerbForm::Past)))
}

/// How many words at `words[i..]` make a subject that opens a clause (0:
/// none).
pub fn subject_at(words: &[&str], i: usize) -> usize {
    let Some(w) = words.get(i) else {
        return 0;
    };
    let b = bare(w);
    if SUBJECTS.contains(&b.as_str()) {
        return 1;
    }
    // "..., her name's Mochi", "..., his name is Tom": whose name
    let name = words.get(i + 1).map(|n| bare(n)).unwrap_or_default();
    let is = words
        .get(i + 2)
        .is_some_and(|v| matches!(bare(v).as_str(), "is" | "was"));
    if matches!(b.as_str(), "his" | "her" | "their") && (name == "name's" || (name == "name" && is))
    {
        return 2;
    }
    let next_is_verb = |j: usize| words.get(j).is_some_and(|n| is_verbish(n));
    // "... so food matters a lot", "so money is tight": after a "so" of
    // consequence a bare noun before a verb of its own is a subject
    if i > 0
        && bare(words[i - 1]) == "so"
        && !is_verbish(w)
        && !w.ends_with([',', ';', '.'])
        && words.get(i + 1).is_some_and(|n| {
            let b = bare(n);
            matches!(b.as_str(), "is" | "was" | "has")
                || matches!(verb(&b), Some((_, VerbForm::Third | VerbForm::Past)))
        })
    {
        return 1;
    }
    // "the flat is tiny and rent is 950 each", "I'm leading the redesign,
    // launch is planned for May 15": after "and", "but" or a comma a bare
    // noun before "is" is a subject, even one that could be a verb, when
    // a clause with a verb of its own came before ("Tracking your plans
    // and goals is key" has none: the noun is part of the subject)
    // (after a comma the clause before ends with the word before; after
    // "and" or ", but" it ends before the conjunction)
    let comma = i > 0 && words[i - 1].ends_with(',');
    let end = if comma { i } else { i.saturating_sub(1) };
    let clause_before = i > 1 && {
        let from = words[..end - 1]
            .iter()
            .rposition(|w| w.ends_with([',', ';', '.', '!', '?']))
            .map_or(0, |p| p + 1);
        // ("your plans": a noun after a determiner, however it reads)
        (from..end).any(|k| {
            finite(words[k])
                && !(k > 0
                    && matches!(
                        bare(words[k - 1]).as_str(),
                        "the" | "a" | "my" | "your" | "our" | "his" | "her" | "their" | "its"
                    ))
        })
    };
    if clause_before
        && (comma || matches!(bare(words[i - 1]).as_str(), "and" | "but"))
        && !matches!(
            verb(&b),
            Some((_, VerbForm::Third | VerbForm::Past | VerbForm::Gerund))
        )
        && !w.ends_with([',', ';', '.'])
        && b.chars().all(|c| c.is_ascii_lowercase())
        && !AUXILIARIES.contains(&b.as_str())
        && !matches!(
            b.as_str(),
            "the"
                | "a"
                | "an"
                | "my"
                | "our"
                | "his"
                | "her"
                | "their"
                | "your"
                | "this"
                | "that"
                | "it"
                | "not"
                | "also"
                | "then"
                | "now"
                | "so"
                | "still"
                | "there"
                | "here"
                | "which"
                | "who"
                | "what"
                | "where"
                | "when"
                | "whose"
                | "how"
        )
        && words
            .get(i + 1)
            .is_some_and(|n| matches!(bare(n).as_str(), "is" | "was"))
    {
        return 1;
    }
    // "..., longest run so far is 16k", "next goal is ...": a best or an
    // aim of one's own, said with no "my"
    if (super::lexicon::OWN_BESTS.contains(&b.as_str()) || matches!(b.as_str(), "next" | "main"))
        && !w.ends_with([',', ';', '.'])
        && words
            .get(i + 1)
            // ("run" may be a participle: it is the noun here)
            .is_some_and(|n| {
                !AUXILIARIES.contains(&bare(n).as_str()) && !n.ends_with([',', ';', '.'])
            })
    {
        let far = words.get(i + 2).is_some_and(|a| bare(a) == "so")
            && words.get(i + 3).is_some_and(|a| bare(a) == "far");
        let at = if far { i + 4 } else { i + 2 };
        if words
            .get(at)
            .is_some_and(|v| matches!(bare(v).as_str(), "is" | "was"))
        {
            return at - i;
        }
    }
    // "a few weren't able to", "others didn't", "most were kind": a
    // quantifier standing for people or things before its verb (never
    // after "and" or "or", where it is more of a subject or an object:
    // "my studio and some other schools are", "my business and some new
    // dance routines")
    let after_and = i > 0 && matches!(bare(words[i - 1]).as_str(), "and" | "or");
    let quantifier = !after_and
        && matches!(
            b.as_str(),
            "some" | "many" | "most" | "several" | "others" | "few"
        );
    if quantifier && next_is_verb(i + 1) && !w.ends_with([',', ';', '.']) {
        return 1;
    }
    if b == "a"
        && !after_and
        && words.get(i + 1).is_some_and(|n| n == &"few")
        && next_is_verb(i + 2)
    {
        return 2;
    }
    // "..., Hoi An was the highlight": after a comma, a name of a few
    // capitalised words before "is" or "was"
    if i > 0 && words[i - 1].ends_with(',') {
        // ("Hoi An": a later word of a name may be a word of its own)
        let name = words[i..]
            .iter()
            .take(3)
            .enumerate()
            .take_while(|(k, w)| {
                let capital = *k > 0 && w.starts_with(char::is_uppercase);
                (capital || super::intro::is_name_word(w)) && !w.ends_with([',', ';', '.'])
            })
            .count();
        if name > 0
            && words
                .get(i + name)
                .is_some_and(|v| matches!(bare(v).as_str(), "is" | "was" | "are" | "were" | "has"))
        {
            return name;
        }
    }
    // "my sister lives ...", "my favourite book is ...", "my brother Dev
    // plays ...", "the kids loved it", "some close friends kept ...": a
    // possessive, "the" or a quantifier, one to three words, then a verb
    // ("..., Leo's new teacher is Mr Ali": a name's, as "my")
    let names_whose = i > 0
        && words[i - 1].ends_with(',')
        && b.ends_with("'s")
        && w.starts_with(char::is_uppercase)
        && !w.ends_with([',', ';', '.']);
    if quantifier
        || names_whose
        || matches!(b.as_str(), "my" | "our" | "his" | "her" | "their" | "the")
    {
        for k in 1..=3 {
            let Some(last) = words.get(i + k) else {
                return 0;
            };
            // "the feels have been", "my plans are": a word that could be
            // a verb is the noun when an auxiliary follows it
            let aux_next = words.get(i + k + 1).is_some_and(|n| {
                matches!(
                    bare(n).as_str(),
                    "is" | "are" | "was" | "were" | "has" | "have" | "had" | "will"
                )
            });
            if aux_next
                && !AUXILIARIES.contains(&bare(last).as_str())
                && !last.ends_with([',', ';', '.'])
            {
                return k + 1;
            }
            // the phrase ends at punctuation or before a verb ("my
            // marketing skills to make": "to" opens an infinitive, no verb
            // of the phrase's own)
            // ("my left calf is tight": a side, no verb)
            let side = k == 1 && bare(last) == "left" && !last.ends_with([',', ';', '.']);
            if (is_verbish(last) && !side)
                || bare(last).is_empty()
                || matches!(bare(last).as_str(), "to" | "and" | "or" | "but")
            {
                return 0;
            }
            if next_is_verb(i + k + 1) && !last.ends_with([',', ';', '.']) {
                return k + 1;
            }
            if last.ends_with([',', ';', '.']) {
                return 0;
            }
        }
        return 0;
    }
    // "Family's love really grounds us": after a possessive a bare verb
    // form is a noun, and the subject runs on to the verb
    let possessive = w.ends_with("'s") || w.ends_with("\u{2019}s");
    if capitalised(w)
        && possessive
        && words
            .get(i + 1)
            .is_some_and(|n| matches!(verb(&bare(n)), Some((_, VerbForm::Base))))
    {
        let mut j = i + 2;
        while words
            .get(j)
            .is_some_and(|a| bare(a).ends_with("ly") && !is_verbish(a))
        {
            j += 1;
        }
        return if next_is_verb(j) { 2 } else { 0 };
    }
    // "... so Dr. Lin is my supervisor now": after a conjunction, a title,
    // the name and a verb open a clause (a sentence's own subject is
    // left whole: "Dr. Haddad took me off X and started me on Y" is one
    // switch)
    let title = i > 0 && capitalised(w) && super::lexicon::is_title(w);
    if title
        && words
            .get(i + 1)
            .is_some_and(|n| capitalised(n) && !n.ends_with([',', ';', '.']))
        && next_is_verb(i + 2)
    {
        return 2;
    }
    // "Sam moved ..."; "... but Udon already owns the sofa": an adverb
    // may stand between the name and its verb
    let adverb = words.get(i + 1).is_some_and(|a| {
        matches!(
            bare(a).as_str(),
            "already" | "just" | "still" | "also" | "really" | "always" | "never" | "finally"
        )
    });
    if capitalised(w) && b != "i" && (next_is_verb(i + 1) || (adverb && next_is_verb(i + 2))) {
        return 1;
    }
    0
}
