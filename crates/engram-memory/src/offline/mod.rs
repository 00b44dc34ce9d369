//! The offline extractor: atomic facts from what people said. Each turn
//! is split into sentences and each sentence into clauses (one fact each);
//! greetings, reactions, questions, advice, encouragement, pictures shown
//! without content and talk about the conversation are dropped; a
//! self-introduction names its speaker; first and second person become
//! the speaker's and listener's names, third person the person just
//! mentioned (a clause whose pronoun cannot be resolved is dropped);
//! relative dates are resolved against the day it was said; durable traits
//! are marked static. Assistant turns give context only.
//!
//! It is a rule set, not a model: it keeps facts that are stated, in the
//! words they were stated in, and prefers dropping a sentence to inventing
//! meaning. An LLM extractor, when configured, does better; this one is the
//! always-available floor.

mod affirmed;
mod allergy;
mod asides;
mod asyndeton;
mod baby;
mod carried;
mod changed_taste;
mod classify;
pub(crate) mod clauses;
mod context;
mod coordination;
pub(crate) mod coref;
mod corrected;
mod costs;
pub(crate) mod dates;
mod doing_it;
mod entities;
mod filled;
mod frames;
mod gapped;
mod group;
mod had;
mod home;
mod idioms;
mod intro;
mod itinerary;
mod lead;
pub(crate) mod lexicon;
mod measures;
mod named;
mod named_list;
mod note_labels;
mod note_subject;
mod note_values;
mod notes;
mod openers;
mod orgs;
mod owned_event;
mod owners;
mod people;
mod pictures;
mod pointers;
mod predicate;
mod projects;
mod pronoun_cues;
mod pronoun_words;
mod pronouns;
mod relatives;
mod restate;
mod said_alone;
mod said_listed;
mod said_plainly;
mod salvage;
mod shape;
mod short_answers;
mod shown;
mod subjects;
mod surface;
mod taken_with;
mod telegraphic;
mod things;
mod titles;
mod topic;
mod turn_text;
mod typed;
mod vague;
mod verdicts;
mod wants;
mod weddings;
mod which_of;
mod words;

pub use classify::{is_fact_like, is_static, occupation};
pub(crate) use context::{context_of, context_without_siblings};
pub use entities::entities_of;
pub use intro::{
    asks_for_a_name, from_context as name_in_context, introduced, is_name_word, says_a_name,
};
pub use named::names_a_pet;
pub use people::{is_person_name, self_introduction};
pub(crate) use said_alone::named_not_dated;

use crate::{Candidate, EntityKind, Role, Turn};
use engram_extract::split_sentences;
use people::{common_words, lowered_if_common, person_names};
use restate::{spell_age, unreported};
use std::collections::HashSet;
use subjects::{with_origin_subject, with_subject};
use surface::*;

/// Fact candidates from a conversation or document, in order, without
/// duplicates.
pub fn extract(turns: &[Turn]) -> Vec<Candidate> {
    extract_after(turns, &[])
}

/// [`extract`], after a document of the same space whose facts were
/// `prior`: whom they speak of may be whom a pronoun opening this one
/// means ([`pronouns::Antecedents::seed`]).
pub fn extract_after(turns: &[Turn], prior: &[String]) -> Vec<Candidate> {
    if let Some(texts) = turn_text::as_meant(turns, prior) {
        let fixed: Vec<Turn> = turns
            .iter()
            .zip(&texts)
            .map(|(t, text)| Turn { text, ..t.clone() })
            .collect();
        return extract_turns(&fixed, prior);
    }
    extract_turns(turns, prior)
}

fn extract_turns(turns: &[Turn], prior: &[String]) -> Vec<Candidate> {
    let (mut people, talkers) = people::of_turns(turns);
    people.extend(people::named_in_facts(prior));
    let common = common_words(turns);
    let mut out: Vec<Candidate> = Vec::new();
    let mut owners = owners::Owners::default();
    for t in turns {
        owners.note(&without_attachments(t.text), t.speaker, t.listener);
    }
    let mut antecedents = pronouns::Antecedents::with_owners(owners);
    antecedents.seed(prior, |t| person_names(t, &people, &common), &talkers);
    // the last place named, and in which turn
    let mut last_place: Option<(String, usize)> = None;
    // who types without capitals and apostrophes somewhere here
    let casual_speakers = typed::casual_speakers(turns);
    for (ti, t) in turns.iter().enumerate() {
        antecedents.age(ti, topic::asked_back(turns, ti));
        if t.role != Role::User {
            continue;
        }
        let text = turn_text::rewritten(
            without_attachments(t.text),
            casual_speakers.contains(&t.speaker),
        );
        // "these little guys" with a picture of turtles: the speaker's turtles
        if let (Some(sp), Some(animals)) = (t.speaker, shown::fond_animals(t.text)) {
            antecedents.note_animals(sp, &animals, ti);
        }
        // the turn's clauses, whether each became a memory, and the
        // candidates of this turn with the clause each came from
        let mut clauses_here: Vec<(String, bool)> = Vec::new();
        let first = out.len();
        let mut from_clause: Vec<usize> = Vec::new();
        // a definite thing liked in a turn about a picture is in the picture
        let on_picture = pointers::remarks_on_picture(t.text);
        // a semicolon joins sentences that stand alone ("Some stuff has
        // been going on; last week I ...")
        let sentences = split_sentences(&text, 0, text.len())
            .into_iter()
            .flat_map(|(s, e)| text[s..e].split("; "));
        // a title or name said in the sentence before, which an opening "It"
        // means
        let mut title: Option<String> = None;
        // what the listener's question just before asked about
        let asked = topic::asked_in(turns, ti);
        // the listener's question just before, which a short answer fills
        let question = topic::said_before_by_another(turns, ti).map(|q| q.text);
        let mut lead = 0;
        for (si, said) in sentences.enumerate() {
            let sentence = said_plainly::restated(strip_vocative(
                openers::strip_closers(strip_openers(said)),
                &people,
            ));
            let sentence = sentence.as_str();
            // "How long have you been married?" - "5 years already!" (after
            // a "Thanks!" that leads it)
            lead += usize::from(si == lead && openers::courtesy(sentence));
            let short = question
                .filter(|_| si == lead)
                .and_then(|q| which_of::answered(turns, ti, q, said));
            let sentence = short.as_deref().unwrap_or(sentence);
            // (a title just named is nearer than what was asked)
            let with_title = title
                .take()
                .and_then(|name| titles::it_as_title(sentence, &name));
            let answer = asked
                .as_ref()
                .filter(|_| si < topic::ANSWER_SENTENCES && with_title.is_none())
                .and_then(|asked| topic::answered(sentence, asked));
            let sentence = with_title
                .as_deref()
                .or(answer.as_deref())
                .unwrap_or(sentence);
            // a title or a name, which "there" later in it and "It" opening
            // the next sentence may mean ("It's Seattle, my game there ...")
            title = titles::title_in(sentence).or_else(|| titles::name_in(sentence, &people));
            let mut here = titles::places_in(sentence, &people);
            let placed = title
                .as_deref()
                .and_then(|name| titles::there_as_named(sentence, name))
                // "she wants to try surfing there": the place just said
                .or_else(|| {
                    let place = here.last().or(last_place
                        .as_ref()
                        .filter(|(_, at)| ti - at <= titles::PLACE_TURNS)
                        .map(|(p, _)| p))?;
                    titles::there_as_place(sentence, place)
                });
            if let Some(p) = here.pop() {
                last_place = Some((p, ti));
            }
            let sentence = placed.as_deref().unwrap_or(sentence);
            if !is_fact_like(sentence) {
                // ("what's a good gift for my dad? he's into fishing")
                antecedents.observe_own(sentence, ti, t.speaker, t.listener);
                dropped((), sentence, "a question, or no content");
                clauses_here.push((sentence.to_string(), false));
                continue;
            }
            let sentence = with_origin_subject(sentence, t.speaker.is_some());
            // "Flights on August 4th ...": the speaker's plan in note form
            let sentence = match t.speaker.and_then(|_| {
                telegraphic::expanded(&sentence).or_else(|| telegraphic::new_best(&sentence))
            }) {
                Some(s) => s,
                None => sentence,
            };
            for clause in clauses::split(&sentence) {
                let ci = clauses_here.len();
                // "I got a new job - it's at a startup": the one thing the
                // clause before did something with
                let said_before = clauses_here.last().map(|(c, _)| c.as_str());
                let rewritten = match (t.speaker, said_before) {
                    (Some(sp), Some(before)) => topic::it_from_before(&clause, before, sp),
                    _ => None,
                }
                // "I can't eat shellfish, I'm allergic": allergic to it
                .or_else(|| said_before.and_then(|b| allergy::completed(&clause, b)))
                // "getting a cat but Mo is allergic": to cats
                .or_else(|| said_before.and_then(|b| allergy::to_animal(&clause, b)))
                // "he has Alzheimer's, he was diagnosed in March": with it
                .or_else(|| said_before.and_then(|b| allergy::diagnosed(&clause, b)))
                // "I used to love sushi but now I can't stand it"
                .or_else(|| said_before.and_then(|b| changed_taste::resolved(&clause, b)))
                // "Harry Potter is amazing - I'm totally hooked!": on it
                .or_else(|| said_before.and_then(|b| taken_with::resolved(&clause, b, &people)))
                // "needs knee surgery, it'll cost about £800": the surgery
                .or_else(|| said_before.and_then(|b| costs::cost_of(&clause, b)))
                // "my dad had his check-up ... blood pressure was high": his
                .or_else(|| {
                    let said = out.iter().map(|c| c.content.as_str());
                    measures::said_of(&clause, t.speaker?, said)
                });
                // "I have a new manager, his name is Tom": the manager's
                let named = match rewritten {
                    None => said_before.and_then(|b| named::named(&clause, b)),
                    Some(_) => None,
                };
                // ("Pia has a new manager now" says nothing that "Pia's new
                // manager is Tom" does not: the name's fact stands alone)
                if named.is_some() && said_before.is_some_and(named::only_introduces) {
                    let mut j = 0;
                    out.retain(|_| {
                        j += 1;
                        j <= first || from_clause[j - 1 - first] != ci - 1
                    });
                    from_clause.retain(|c| *c != ci - 1);
                    clauses_here[ci - 1].1 = false;
                }
                let clause = rewritten.or(named).unwrap_or(clause);
                clauses_here.push((clause.clone(), false));
                let mut facts = clause_facts(
                    t,
                    strip_openers(&clause),
                    &people,
                    &common,
                    &mut antecedents,
                    ti,
                    0,
                );
                // ("my girlfriend Bia is coming too": who Bia is stays; kept
                // only when nothing before it in `facts` was, or a partner's)
                let fallback_from = facts.len();
                if let Some(partner) = named::partner_leading(strip_openers(&clause)) {
                    let named =
                        clause_facts(t, &partner, &people, &common, &mut antecedents, ti, 1);
                    facts.extend(named);
                }
                for (k, (content, subject)) in facts.into_iter().enumerate() {
                    if k >= fallback_from && clauses_here[ci].1 && !named::partner_named(&content) {
                        continue;
                    }
                    if out.iter().any(|c| c.content.eq_ignore_ascii_case(&content)) {
                        continue;
                    }
                    let (content, event_dates) = match t.date {
                        Some(d) => {
                            let (text, dates) = dates::resolve(&content, d);
                            (tidy(&lead::date_last(&text)), dates)
                        }
                        None => (content, Vec::new()),
                    };
                    if pointers::reaction(&content)
                        || (on_picture && pointers::liking_shown(&content))
                    {
                        dropped((), &content, "a reaction to something shown");
                        continue;
                    }
                    if pointers::hollow_pointer(&content) {
                        dropped((), &content, "points at something unsaid");
                        continue;
                    }
                    let content = pointers::indefinite(&content);
                    // "Confidence is important" beside "low on confidence":
                    // the capital only opens the sentence
                    let content = lowered_if_common(&content, &common, &people);
                    let content = match (shape::problem(&content, &people), t.speaker) {
                        (None, Some(sp))
                            if t.listener
                                .is_some_and(|l| pointers::praise(&content, sp, l)) =>
                        {
                            dropped((), &content, "a compliment");
                            continue;
                        }
                        (None, _) => content,
                        // "Combining Gina's interests is so cool" said to
                        // Gina: a compliment
                        (Some(shape::OPINION), _)
                            if t.listener.is_some_and(|l| pointers::mentions(&content, l)) =>
                        {
                            dropped((), &content, "a compliment");
                            continue;
                        }
                        // "Harry Potter is amazing" said by Tim
                        (Some(shape::OPINION), Some(sp)) if sp != crate::UNNAMED_USER => {
                            format!("{sp} thinks {}", lowered_unless_named(&content))
                        }
                        (Some(why), _) => {
                            dropped((), &content, why);
                            continue;
                        }
                    };
                    let content = tidy(&content);
                    let entities = entities::find(&content, &people);
                    clauses_here[ci].1 = true;
                    from_clause.push(ci);
                    out.push(Candidate {
                        is_static: is_static(&content),
                        content,
                        subject,
                        document_date: t.date,
                        event_dates,
                        entities,
                        derived_from: Vec::new(),
                        context: String::new(),
                    });
                }
            }
        }
        for (c, ci) in out[first..].iter_mut().zip(from_clause) {
            c.context = context_without_siblings(turns, ti, &clauses_here, ci);
        }
    }
    out
}

/// Give up on a clause, saying why (`RUST_LOG=engram_memory=debug`).
fn dropped<T>(out: T, clause: &str, why: &str) -> T {
    tracing::debug!(clause, why, "not a memory");
    out
}

/// The facts one clause of turn `t` states: `(content, subject)`.
fn clause_facts(
    t: &Turn,
    clause: &str,
    people: &[&str],
    common: &HashSet<String>,
    antecedents: &mut pronouns::Antecedents,
    turn: usize,
    depth: u8,
) -> Vec<(String, Option<String>)> {
    let mut clause = clause.trim().to_string();
    if let Some(sp) = t.speaker {
        clause = generic_your(&antecedents.owners.rewrite(&clause, sp));
    }
    // "Flowers bring joy. They were part of my wedding decor": the thing
    // the sentence before was about
    if let Some(carried) = antecedents.carried(&clause, turn) {
        clause = carried;
    }
    let mut out = Vec::new();
    // what a clause holds beside or beneath what it mainly says, each
    // checked as a clause of its own (once: what they give is plain)
    let again = |part: Option<String>, antecedents: &mut pronouns::Antecedents| match part {
        Some(part) if depth == 0 => {
            clause_facts(t, &part, people, common, antecedents, turn, depth + 1)
        }
        _ => Vec::new(),
    };
    if depth == 0 {
        // "That's why I love traveling", "There's a café I love"
        if let Some(said) = frames::unframed(&clause, t.text) {
            return again(Some(said), antecedents);
        }
        if let Some(said) = salvage::restated(&clause) {
            return again(Some(said), antecedents);
        }
        for part in salvage::inner(&clause, t.listener) {
            out.extend(again(Some(part), antecedents));
        }
        // "... a trip to Japan with my girlfriend Mia": who Mia is
        out.extend(again(named::partner_in_passing(&clause), antecedents));
    }
    // whoever it mentions may be who a later "she" or "they" means, even
    // when the clause itself is no fact ("Luna and Oliver!")
    let exclude: Vec<&str> = t.speaker.into_iter().chain(t.listener).collect();
    // who "we" is: the speaker, and for something done together ("we
    // met", "we've known each other") whoever they named just before
    let l = format!(" {} ", clause.to_lowercase().replace('\u{2019}', "'"));
    let together = group::together(&l);
    // "we were teammates" needs more than one person: a plural role
    let group_role = group::group_role(&l);
    let mut earlier = antecedents.clone();
    let we = if together {
        antecedents.we_together(turn)
    } else if group_role || group::us_together(&l) {
        antecedents.we(turn)
    } else {
        coref::We::default()
    };
    if (group_role || group::both(&l)) && we.companion.is_none() {
        // "John was teammates" says nothing of who the others were
        return dropped(out, &clause, "a group no one named");
    }
    if group::us_together(&l) && we.companion.is_none() {
        return dropped(out, &clause, "a group no one named");
    }
    // "we went camping together" with no one named: what the speaker did
    // ("Melanie went camping"), not "Melanie went camping together"
    if group::we_subject(&l) && we.companion.is_none() && l.contains(" together") {
        clause = group::done_alone(&clause);
        // "we work well together" leaves nothing of its own
        if clause.split_whitespace().count() <= 4 {
            return dropped(out, &clause, "a group no one named");
        }
    }
    if let Some(sp) = t.speaker {
        let (seen, _) = coref::resolve(&clause, sp, t.listener, &we);
        let names = person_names(&seen, people, common);
        // its own pronouns point back before it: "he's a collie called Pip"
        // is not about Pip
        earlier = antecedents.clone();
        antecedents.observe(&seen, turn, &names, &exclude);
        antecedents.note_subject(&seen, turn, &names);
        // "my kids" are the speaker's, however the fact words them later
        antecedents.observe_own(&clause, turn, t.speaker, t.listener);
    }
    if let Some(speaker) = t.speaker {
        // "I'm Maya": news only when the speaker was a role label
        if let Some((name, rest)) = introduced(&clause) {
            if t.generic && speaker != crate::UNNAMED_USER {
                out.push((format!("{name}{}", intro::NAME_FACT), Some(name)));
            }
            // "I'm Aiko, second year at McGill": what the rest says of her
            let mut said = intro::described(&rest).into_iter();
            let Some(first) = said.next() else {
                return dropped(out, &clause, "introduction");
            };
            for more in said {
                out.extend(again(Some(more), antecedents));
            }
            clause = first;
        }
    }
    // "I made this!" with a picture of a cup attached: the cup
    if let Some(c) = shown::thing_shown(t.text).and_then(|thing| shown::with_thing(&clause, &thing))
    {
        clause = c;
    }
    match pictures::picture_lead(&clause) {
        Some(None) => return dropped(out, &clause, "points at a picture"),
        Some(Some(rest)) => clause = rest,
        None => {}
    }
    if let Some(why) = classify::not_a_fact(&clause) {
        if why == "refers back" || why.starts_with("advice") {
            out.extend(again(salvage::subordinate(&clause), antecedents));
        }
        return dropped(out, &clause, why);
    }
    if t.speaker.is_some() {
        match with_subject(&clause) {
            Some(c) => clause = c,
            None => return dropped(out, &clause, "a command"),
        }
    }
    // a fragment ("So much fun!", "A sunset over the lake") states nothing
    let words: Vec<&str> = clause.split_whitespace().collect();
    // ("Expression of myself and a way to relax": an infinitive is not
    // the clause's verb)
    let infinitive = |j: usize| {
        j > 0
            && clauses::bare(words[j - 1]) == "to"
            && matches!(
                lexicon::verb(&clauses::bare(words[j])),
                Some((_, lexicon::VerbForm::Base))
            )
    };
    let finite = (0..words.len()).any(|j| clauses::is_verbish(words[j]) && !infinitive(j));
    if !finite && clauses::subject_at(&words, 0) == 0 {
        // ("Just me and my partner Dana": who the partner is)
        return match named::in_fragment(&clause) {
            Some(said) => again(Some(said), antecedents),
            None => dropped(out, &clause, "a fragment"),
        };
    }
    let names_here = person_names(&clause, people, common);
    let Some((resolved, center)) = earlier.resolve_centered(&clause, turn, &names_here, &exclude)
    else {
        out.extend(again(salvage::subordinate(&clause), antecedents));
        return dropped(out, &clause, "an unresolved pronoun");
    };
    antecedents.recenter(&resolved, center, &names_here, &exclude);
    // ("they start in April" read as "the builder starts ...": the
    // builder of the one piece of work said)
    let resolved = match t.speaker {
        Some(sp) if resolved != clause => antecedents.owners.of_work(&resolved, sp),
        _ => resolved,
    };
    // ("the vet thinks it's arthritis": the dog has it)
    let resolved = allergy::illness_it(&clause, &resolved).unwrap_or(resolved);
    let (text, about_speaker) = match t.speaker {
        Some(sp) => coref::resolve(&resolved, sp, t.listener, &we),
        None => (resolved, false),
    };
    // "Frodo grows throughout the story": a character, not a person here
    if !about_speaker && vague::story_events(&text) {
        return dropped(out, &text, "what happens in a story");
    }
    // "you" nobody stands for: the clause is about the listener
    if text
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .any(|w| {
            matches!(
                w.to_lowercase().as_str(),
                "you" | "your" | "yours" | "yourself" | "you're" | "you've" | "you'll" | "you'd"
            )
        })
    {
        return dropped(out, &text, "about an unknown listener");
    }
    let entities = entities::find(&text, people);
    antecedents.observe(&text, turn, &person_names(&text, people, common), &exclude);
    // a fact is about someone or something named, or holds a number (or
    // the user no name was given for: "the user's dad has a room")
    let unnamed =
        t.speaker == Some(crate::UNNAMED_USER) && text.to_lowercase().contains(crate::UNNAMED_USER);
    // ("the wedding got moved to September": the event, to a date)
    if !about_speaker
        && !unnamed
        && entities.is_empty()
        && !has_number(&text)
        && !lexicon::moves_an_event(&text)
    {
        return dropped(out, &text, "about nobody named");
    }
    let text = spell_age(&had_before_participle(&copula_spelled(&text)));
    let n = classify::content(&text);
    if n < 2 && !(n >= 1 && (is_static(&text) || has_number(&text))) {
        return dropped(out, &text, "too little content");
    }
    let subject = if about_speaker {
        t.speaker.map(str::to_string)
    } else {
        entities
            .iter()
            .find(|e| e.kind == EntityKind::Person)
            .map(|e| e.name.clone())
    };
    out.push((tidy(&named(&unreported(&text))), subject));
    out
}

#[cfg(test)]
mod casual_tests;
#[cfg(test)]
mod loose_tests;
#[cfg(test)]
mod reference_tests;
#[cfg(test)]
mod robust_tests;
#[cfg(test)]
mod tests;
