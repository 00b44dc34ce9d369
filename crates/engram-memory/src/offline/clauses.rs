//! Coordinated clauses split into one statement each, so that a memory
//! states one fact: "I'm Tom, I'm 34, I live in Leeds and I teach
//! chemistry" becomes four clauses, and "I live in Leeds and teach
//! chemistry" two, the second taking the first one's subject.
//!
//! A boundary is a comma, semicolon or coordinating conjunction followed by
//! a new subject (a pronoun, "my sister", a name before a verb), or "and"
//! / "but" followed by a verb that shares the subject before it. Nothing
//! is split unless the part before the boundary already holds a verb, so
//! "My wife and I went to Rome" and "I love cats and dogs" stay whole.

use super::coordination::{
    after_linking_adjective, attention_imperative, ends_in_infinitive, first_verb_is_base,
    gerund_subject, opens_object, progressive, verb_list_item,
};
use super::lexicon::{verb, VerbForm, AUXILIARIES};

pub use super::coordination::subject_at;

/// Conjunctions dropped at a boundary.
const CONJUNCTIONS: &[&str] = &["and", "but", "so", "then", "plus", "also"];

/// Adverbs that may open a clause before its subject ("and now I ...").
const ADVERBS_BEFORE: &[&str] = &[
    "now",
    "then",
    "also",
    "later",
    "recently",
    "currently",
    "still",
    "always",
    "never",
    "usually",
    "often",
    "even",
];

/// Words that open a subordinate clause: a comma after such a clause is
/// not a boundary ("When I was a kid, I loved dancing").
pub(super) const SUBORDINATORS: &[&str] = &[
    "when", "if", "because", "since", "although", "though", "after", "before", "while", "as",
    "once", "until", "whenever", "unless", "whether",
];

/// Subject pronouns (and their contractions) that open a clause.
pub(super) const SUBJECTS: &[&str] = &[
    "i", "i'm", "i've", "i'll", "i'd", "we", "we're", "we've", "we'll", "we'd", "he", "he's",
    "she", "she's", "they", "they're", "they've", "they'll", "it", "it's", "it'd", "it'll",
    "he'll", "she'll", "he'd", "she'd", "they'd", "that's", "there's", "this", "that", "you",
    "you're", "you've", "you'll",
];

/// A word without surrounding punctuation, lowercased, with curly
/// apostrophes made straight.
pub fn bare(w: &str) -> String {
    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '\u{2019}')
        .to_lowercase()
        .replace('\u{2019}', "'")
}

pub fn is_verbish(w: &str) -> bool {
    let b = bare(w);
    AUXILIARIES.contains(&b.as_str())
        || verb(&b).is_some()
        || (["'m", "'re", "'s", "'ve", "'ll", "'d"]
            .iter()
            .any(|c| b.ends_with(c) && b.len() > c.len())
            // ("has Alzheimer's": an illness, no "is")
            && !super::entities::condition(w))
}

pub(super) fn capitalised(w: &str) -> bool {
    w.trim_start_matches(|c: char| !c.is_alphanumeric())
        .chars()
        .next()
        .is_some_and(char::is_uppercase)
}

/// The subject of a clause as words to repeat before a verb that shares
/// it ("I", "my sister", "Sam"); `None` when the clause does not open with
/// one.
fn subject_words(clause: &[&str]) -> Option<String> {
    let n = subject_at(clause, 0);
    if n == 0 {
        return None;
    }
    let first = bare(clause[0]);
    let s = match first.as_str() {
        "i" | "i'm" | "i've" | "i'll" | "i'd" => "I".to_string(),
        "we" | "we're" | "we've" | "we'll" | "we'd" => "we".to_string(),
        "he" | "he's" => "he".to_string(),
        "she" | "she's" => "she".to_string(),
        "they" | "they're" | "they've" | "they'll" => "they".to_string(),
        _ => clause[..n]
            .iter()
            .map(|w| w.trim_end_matches([',', ';']))
            .collect::<Vec<_>>()
            .join(" "),
    };
    Some(s)
}

/// The "be" a gerund takes after a subject ("I'm", "we're", "Sam is").
fn be_for(subject: &str) -> String {
    match subject {
        "I" => "I'm".to_string(),
        "we" | "they" => format!("{subject} are"),
        s => format!("{s} is"),
    }
}

/// Whether `words[i]` opens an aim: "aiming for", "hoping to".
fn aim_at(words: &[&str], i: usize) -> bool {
    matches!(
        bare(words[i]).as_str(),
        "aiming" | "hoping" | "planning" | "trying"
    ) && words
        .get(i + 1)
        .is_some_and(|n| matches!(bare(n).as_str(), "to" | "for"))
}

/// Split a sentence into clauses (see the module docs); a dash between
/// words ("I took my family camping - it was lovely") separates, unless
/// what follows it is a noun phrase that says what the part before it was
/// ([`appositive`]).
pub fn split(sentence: &str) -> Vec<String> {
    // "My sister, who lives in Bristol, is a nurse": two sentences
    if let Some(sentences) = super::relatives::expanded(sentence) {
        return sentences.iter().flat_map(|s| split(s)).collect();
    }
    // "I do the cooking on weekdays, Marco on weekends": two sentences
    if let Some(sentences) = super::gapped::expanded(sentence) {
        return sentences.iter().flat_map(|s| split(s)).collect();
    }
    // "rent is 1450, car payment 320": a sentence per cost
    if let Some(sentences) = super::gapped::amounts(sentence) {
        return sentences.iter().flat_map(|s| split(s)).collect();
    }
    // "draft is due March 31, defence sometime in June": a sentence each
    if let Some(sentences) = super::gapped::dated_events(sentence) {
        return sentences.iter().flat_map(|s| split(s)).collect();
    }
    // "We have two kids, Arjun who is 7 and Meera who just turned 4": one
    // sentence per fact first
    if let Some(sentences) = super::named_list::expanded(sentence) {
        return sentences.iter().flat_map(|s| split(s)).collect();
    }
    let sentence = super::asides::without_aside(sentence);
    let mut parts: Vec<Vec<&str>> = vec![Vec::new()];
    for w in sentence.split([' ', '\u{00a0}']) {
        if matches!(w, "-" | "--" | "\u{2013}" | "\u{2014}") {
            parts.push(Vec::new());
            continue;
        }
        // "they're good- we got a cat": a dash stuck to the word before
        match w.strip_suffix(['-', '\u{2013}', '\u{2014}']) {
            Some(head) if head.chars().last().is_some_and(char::is_alphabetic) => {
                parts.last_mut().expect("one part at least").push(head);
                parts.push(Vec::new());
            }
            _ => parts.last_mut().expect("one part at least").push(w),
        }
    }
    let mut joined: Vec<Vec<&str>> = Vec::new();
    for part in parts {
        match joined.last_mut() {
            Some(before) if !before.is_empty() && appositive(&part) => {
                before.push("-");
                before.extend(part);
            }
            _ => joined.push(part),
        }
    }
    let mut out = Vec::new();
    // the subject (and its "be") of the part before a dash
    let mut before: Option<String> = None;
    for part in joined {
        let text = part.join(" ");
        if text.trim().is_empty() {
            continue;
        }
        // "The little one is doing great - learning commands": a gerund
        // after a dash goes on about the subject before it
        let text = match (&before, part.first()) {
            (Some(subject), Some(first))
                if matches!(verb(&bare(first)), Some((_, VerbForm::Gerund))) =>
            {
                format!("{subject} {text}")
            }
            _ => text,
        };
        before = third_party_subject(&part);
        out.extend(split_part(&text));
    }
    out
}

/// Whether a part after a dash is a noun phrase naming what the part
/// before it was about, which loses its content alone and stays with it:
/// "I had a setback recently - another rejection from a production
/// company", "We got a new pet - a golden retriever named Max". It starts
/// with a determiner or a number, has no verb, and does not evaluate ("-
/// such a blast", "- a great time", "- the best day ever" are reactions).
fn appositive(part: &[&str]) -> bool {
    const STARTS: &[&str] = &[
        "a", "an", "another", "the", "my", "our", "his", "her", "their", "two", "three", "four",
        "five", "six", "seven", "eight", "nine", "ten",
    ];
    let words: Vec<String> = part.iter().map(|w| bare(w)).collect();
    // ("a thriller set in a small town", "a novel based on ...": a
    // participle after the noun describes it)
    let describing = |i: usize| {
        i >= 2
            // ("set" reads as a base: its past is spelled the same)
            && super::lexicon::verb(&words[i]).is_some_and(|(_, f)| {
                matches!(f, super::lexicon::VerbForm::Past | super::lexicon::VerbForm::Base)
            })
            && words
                .get(i + 1)
                .is_some_and(|n| matches!(n.as_str(), "in" | "on" | "by" | "of" | "at" | "from"))
    };
    (2..=12).contains(&words.len())
        && STARTS.contains(&words[0].as_str())
        && !words.iter().enumerate().any(|(i, w)| {
            (is_verbish(w) && !describing(i))
                || super::words::EVALUATIVE.contains(&w.as_str())
                || ["lot", "bit", "ton", "tons", "blast", "dream", "ever"].contains(&w.as_str())
        })
        && !part.iter().any(|w| w.contains('?'))
}

/// The subject of `part` with "is" or "are" when it is someone or
/// something other than the speaker ("The little one is doing great" ->
/// "The little one is"); `None` for "I" and "we", whose gerunds the
/// speaker's elided "I'm" already covers.
fn third_party_subject(part: &[&str]) -> Option<String> {
    let v = part.iter().position(|w| is_verbish(w))?;
    if v == 0 || SUBJECTS.contains(&bare(part[0]).as_str()) {
        return None;
    }
    let be = match bare(part[v]).as_str() {
        "are" | "were" => "are",
        "is" | "was" => "is",
        _ => return None,
    };
    Some(format!("{} {be}", part[..v].join(" ")))
}

fn split_part(sentence: &str) -> Vec<String> {
    let words: Vec<&str> = sentence.split_whitespace().collect();
    if words.len() < 4 {
        return vec![sentence.trim().to_string()];
    }
    let mut out: Vec<String> = Vec::new();
    let mut start = 0;
    // words put before the clause that starts at `start` (a shared subject)
    let mut prefix: Option<String> = None;
    let push = |out: &mut Vec<String>, prefix: Option<&String>, body: &[&str]| {
        // "now I work as ..." reads "I now work as ..."
        let mut body: Vec<String> = body.iter().map(|w| w.to_string()).collect();
        // "these days I hate it" reads "I hate it these days"
        if body.len() > 3
            && bare(&body[0]) == "these"
            && bare(&body[1]) == "days"
            && subject_at(&body.iter().map(String::as_str).collect::<Vec<_>>(), 2) > 0
        {
            body.drain(..2);
            let last = body.last_mut().expect("more than one word");
            let stop: String = last
                .chars()
                .rev()
                .take_while(|c| ".!".contains(*c))
                .collect();
            last.truncate(last.len() - stop.len());
            last.push_str(&format!(" these days{stop}"));
        }
        if body.len() > 2
            && ADVERBS_BEFORE.contains(&bare(&body[0]).as_str())
            && subject_at(&body.iter().map(String::as_str).collect::<Vec<_>>(), 1) == 1
        {
            // the adverb moves into the sentence: no capital, no comma
            // ("Now, I'm ..." -> "I'm now ..."); "then" only orders it
            // after something the memory does not say, and an opening
            // "also" only adds it to what was said before ("also I'm
            // allergic to shellfish" is no second allergy), so they go
            let adverb = body[0].trim_end_matches(',').to_lowercase();
            let subject = std::mem::take(&mut body[1]);
            body[0] = match subject.strip_suffix(',') {
                Some(s) => s.to_string(),
                None => subject,
            };
            if adverb == "then" || adverb == "also" {
                body.remove(1);
            } else {
                body[1] = adverb;
            }
        }
        let text = body.join(" ");
        let text = text.trim_end_matches([',', ';']).trim().to_string();
        if !text.is_empty() {
            out.push(match prefix {
                Some(p) => format!("{p} {text}"),
                None => text,
            });
        }
    };
    for i in 1..words.len() {
        let prev = words[i - 1];
        let prev_bare = bare(prev);
        let clause = &words[start..i];
        let comma = prev.ends_with([',', ';']);
        // ("longest run so far is 16k": "so" of a degree, no conjunction)
        let conj = CONJUNCTIONS.contains(&prev_bare.as_str())
            && !(prev_bare == "so"
                && !prev.ends_with(',')
                && matches!(bare(words[i]).as_str(), "far" | "much" | "many" | "long"));
        // the clause so far, without a trailing conjunction
        let body_end = if conj { i - 1 } else { i };
        // "Nothing too soon, but my colleague invited me ...": a lead
        // with no verb of its own, then a clause with its subject
        // (or a short one with no comma: "no allergies but I hate ...", "up to
        // 30k long runs but my left calf is tight")
        // ("really well, though she's scared of the hoover": the same
        // after "though")
        let verbless_lead = (conj || matches!(prev_bare.as_str(), "though" | "although"))
            && matches!(prev_bare.as_str(), "but" | "though" | "although")
            && i >= 2
            // (after "though" only a lead closed by a comma: "even though
            // ..." is one subordinate clause)
            && (words[i - 2].ends_with(',') || (body_end - start <= 6 && prev_bare == "but"))
            && body_end > start
            && !(start..body_end).any(|k| is_verbish(words[k]) && !super::lead::counted_noun(&words[start..=k]))
            && subject_at(&words, i) > 0;
        // "Just me and my partner Dana, she is a nurse": a lead naming
        // someone close, then a clause of its own
        let naming_lead = comma
            && !conj
            && !clause.iter().any(|w| is_verbish(w))
            && subject_at(&words, i) > 0
            && super::named::in_fragment(&clause.join(" ")).is_some();
        if verbless_lead || naming_lead {
            let end = if matches!(prev_bare.as_str(), "though" | "although") {
                i - 1
            } else {
                body_end
            };
            push(&mut out, prefix.as_ref(), &words[start..end]);
            prefix = None;
            start = i;
            continue;
        }
        if body_end <= start
            || !clause.iter().any(|w| is_verbish(w))
            || clause
                .first()
                .is_some_and(|w| SUBORDINATORS.contains(&bare(w).as_str()))
        {
            continue;
        }
        let mut lead: Option<Option<String>> = None;
        // "... and now I work as ...": an adverb may open the next clause
        // (or a hedge, which stays first: "..., maybe you would like
        // that" is its own clause, and a possibility)
        let time_lead = super::lead::time_lead(&words[i..]);
        let adverb = if bare(words[i]) == "these"
            && words.get(i + 1).map(|w| bare(w)).as_deref() == Some("days")
        {
            2
        } else if comma && time_lead > 0 {
            // "..., the rest of the week I'm in the office"
            time_lead
        } else {
            usize::from(
                ADVERBS_BEFORE.contains(&bare(words[i]).as_str())
                    || ((comma || (conj && subject_at(&words, i + 1) > 0))
                        && matches!(bare(words[i]).as_str(), "maybe" | "perhaps")),
            )
        };
        let body = &words[start..body_end];
        // "..., sounds like a great adventure": "it" left out, a clause
        // of its own
        let elided_it = comma && matches!(bare(words[i]).as_str(), "sounds" | "looks" | "seems");
        if ((comma || conj) && subject_at(&words, i + adverb) > 0) || elided_it {
            lead = Some(None);
        } else if (comma || conj) && gerund_subject(body, &words, i) {
            // "..., working with them would be cool": a gerund phrase
            // that is a subject starts a clause of its own
            lead = Some(None);
        } else if let Some(subj) = comma
            .then(|| super::asyndeton::left_out_subject(body, &words, i))
            .flatten()
        {
            // "I'm job hunting, got interviews lined up", "he's 5, loves
            // dinosaurs": a verb after the clause, with an object, has
            // its subject
            lead = Some(Some(subj));
        } else if comma && verb_list_item(&words, i) && !ends_in_infinitive(body) {
            // "I cook dinner, garden, and play cards": each verb of the
            // list shares the subject
            if let Some(subj) = subject_words(body).or_else(|| prefix.clone()) {
                lead = Some(Some(subj));
            }
        } else if conj
            && prev_bare == "and"
            && attention_imperative(&words[i + adverb..])
            && !first_verb_is_base(body)
        {
            // "I've put work into the shop, and look at my customers": a
            // bare "look at" after a verb of another form is said to the
            // listener, not done by the subject
            lead = Some(None);
        } else if conj
            && prev_bare == "and"
            && matches!(bare(words[i]).as_str(), "a" | "an")
            && words[i..]
                .iter()
                .take(6)
                .any(|w| matches!(bare(w).as_str(), "named" | "called"))
        {
            // "We have two kids, and a dog named Biscuit": the named thing
            // is had (or got, or adopted) too
            let n = subject_at(body, 0);
            let (subj, verb_word) = if n > 0 {
                (subject_words(body), body.get(n))
            } else {
                (prefix.clone(), body.first())
            };
            if let (Some(subj), Some(v)) = (subj, verb_word.filter(|v| is_verbish(v))) {
                lead = Some(Some(format!("{subj} {}", v.trim_end_matches(','))));
            }
        } else if conj
            && matches!(prev_bare.as_str(), "and" | "but")
            && words.len() - i >= 2 + adverb
        {
            // "... and teach chemistry", "... and now runs a vineyard": a
            // verb sharing the subject
            let shared = subject_words(body).or_else(|| prefix.clone());
            // "furniture that looks great and is comfy": the verb after
            // "and" goes on with the relative clause, not the subject
            // (a verb the lexicon lacks reads as one by its -s: "an
            // organization that offers housing and support")
            let relative = body.windows(2).skip(1).any(|p| {
                let third = bare(p[1]).ends_with('s') && !bare(p[1]).ends_with("ss");
                matches!(bare(p[0]).as_str(), "that" | "which" | "who")
                    && (is_verbish(p[1]) || third)
            });
            // "counseling and support groups improved my life": a bare
            // form, a noun and a past verb make a subject, not a verb
            let compound_noun = matches!(verb(&bare(words[i + adverb])), Some((_, VerbForm::Base)))
                && words
                    .get(i + adverb + 1)
                    .is_some_and(|n| !is_verbish(n) && !opens_object(n))
                && words.get(i + adverb + 2).is_some_and(|v| {
                    matches!(verb(&bare(v)), Some((_, VerbForm::Past | VerbForm::Third)))
                        || bare(v).ends_with("ed")
                });
            // "loads of love and support throughout", "the self-acceptance
            // and love theme": after a determiner or preposition and a
            // noun, a bare form after "and" is a noun too, unless an
            // object follows it ("my dog and walk him"); a past form is a
            // verb ("because of my knee and took up swimming")
            let noun_pair = i >= 3
                && matches!(verb(&bare(words[i + adverb])), Some((_, VerbForm::Base)))
                && matches!(
                    bare(words[i - 3]).as_str(),
                    "of" | "with" | "the" | "a" | "my" | "our" | "your" | "his" | "her" | "their"
                )
                && words
                    .get(i + adverb + 1)
                    .is_none_or(|n| !opens_object(n) && bare(n) != "to");
            // "framed the map and hung it in the hall": the second verb's
            // "it" is the first one's object, and the two stay one fact
            let object_it = words.get(i + adverb + 1).is_some_and(|w| bare(w) == "it")
                && words.get(i + adverb + 2).is_none_or(|w| !is_verbish(w))
                && super::pronouns::thing_before(body);
            // "stories and sketches - so awesome": a plural noun, "and",
            // and a word in -s that ends the phrase is a noun too ("walks
            // dogs and sketches portraits" has an object after it)
            let plural_pair = i >= 2
                && matches!(verb(&bare(words[i + adverb])), Some((_, VerbForm::Third)))
                && {
                    // ("the needs and hopes of ...": after a determiner a
                    // word in -s is a noun, whatever else it can be)
                    let before = bare(words[i - 2]);
                    let determined = i >= 3
                        && matches!(
                            bare(words[i - 3]).as_str(),
                            "the" | "my" | "our" | "your" | "his" | "her" | "their"
                        );
                    before.ends_with('s')
                        && !before.ends_with("ss")
                        && (!is_verbish(words[i - 2]) || determined)
                }
                && (words[i + adverb].ends_with([',', '.', '!', '?', ';'])
                    || words.get(i + adverb + 1).is_none_or(|n| {
                        matches!(
                            bare(n).as_str(),
                            "" | "from" | "of" | "in" | "on" | "at" | "with" | "about" | "for"
                        )
                    }));
            let shared = shared.filter(|_| {
                !relative && !compound_noun && !noun_pair && !object_it && !plural_pair
            });
            // the word before "and": "cooking and cleaning", "mentoring and
            // training" and "excited and scared" are one thing said twice
            let before_and = if i >= 2 {
                bare(words[i - 2])
            } else {
                String::new()
            };
            let gerund_pair = matches!(verb(&before_and), Some((_, VerbForm::Gerund)));
            let adjective_pair = super::words::EVALUATIVE.contains(&before_and.as_str());
            // ("got £12k so far and aiming for £30k": an aim is a clause
            // of its own after any verb; "aiming" is not in the lexicon)
            let aim = aim_at(&words, i + adverb) && !gerund_pair;
            match (verb(&bare(words[i + adverb])), shared) {
                (_, Some(subj)) if aim => {
                    lead = Some(Some(be_for(&subj)));
                }
                (Some((_, VerbForm::Gerund)), Some(subj)) if progressive(body) && !gerund_pair => {
                    lead = Some(Some(be_for(&subj)));
                }
                // "asked friends to join the group I'm in and be advocates":
                // a bare "be" is never a finite verb, it goes on with an
                // infinitive however far back
                (Some((_, VerbForm::Base)), Some(subj))
                    if !ends_in_infinitive(body) && bare(words[i + adverb]) != "be" =>
                {
                    lead = Some(Some(subj));
                }
                // "feeling hopeful and inspired about ...": a participle
                // coordinated with an adjective is one too
                (Some((_, VerbForm::Past)), Some(_))
                    if bare(words[i + adverb]).ends_with("ed")
                        && (after_linking_adjective(body) || adjective_pair) => {}
                (Some((_, VerbForm::Third | VerbForm::Past)), Some(subj)) => {
                    lead = Some(Some(subj));
                }
                _ => {}
            }
        }
        // "a brother named Ahmed who lives in Cairo": the name does what
        // the relative clause says
        if lead.is_none()
            && bare(words[i]) == "who"
            && i + 1 < words.len()
            && capitalised(prev)
            && !prev.ends_with([',', '.'])
            && is_verbish(words[i + 1])
        {
            push(&mut out, prefix.as_ref(), &words[start..i]);
            // "I have a brother named Ahmed who ...": "my brother Ahmed ..."
            let named = i >= 4
                && matches!(bare(words[i - 2]).as_str(), "named" | "called")
                && matches!(bare(words[i - 4]).as_str(), "a" | "an");
            let owner = match subject_words(&words[start..i]).as_deref() {
                Some("I") => Some("my"),
                Some("we") => Some("our"),
                _ => None,
            };
            prefix = Some(match (named, owner) {
                (true, Some(o)) => format!("{o} {} {prev}", bare(words[i - 3])),
                _ => prev.to_string(),
            });
            start = i + 1;
            continue;
        }
        if let Some(next_prefix) = lead {
            push(&mut out, prefix.as_ref(), &words[start..body_end]);
            prefix = next_prefix;
            start = i;
        }
    }
    push(&mut out, prefix.as_ref(), &words[start..]);
    out
}

#[cfg(test)]
#[path = "clauses_tests.rs"]
mod tests;
