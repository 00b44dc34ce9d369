//! The cases of `salvage.rs`: what each cut gives on its own, and what the
//! whole extractor makes of it.

use super::*;

#[test]
fn wrappers_and_appositive_fragments_restate() {
    for (clause, expected) in [
        (
            "The toughest thing to deal with is that we had to say goodbye to Max.",
            Some("we had to say goodbye to Max."),
        ),
        (
            "The best part was that my sister came too",
            Some("my sister came too"),
        ),
        (
            "The thing is, I never learned to swim.",
            Some("I never learned to swim."),
        ),
        // a plan is not asserted as done
        ("The plan is that we move in June", None),
        ("Oscar, my guinea pig.", Some("Oscar is my guinea pig.")),
        (
            "Especially after I failed the aptitude test recently",
            Some("I failed the aptitude test recently"),
        ),
        (
            "Matt Patterson, my old teacher",
            Some("Matt Patterson is my old teacher"),
        ),
        ("Oh my god, Anna", None),
        ("Lisbon, my favourite city in the whole world", None),
    ] {
        assert_eq!(restated(clause).as_deref(), expected, "{clause}");
    }
}

#[test]
fn appositives_and_relative_clauses_inside() {
    for (clause, expected) in [
        (
            "This necklace is a gift from my grandma in my home country, Sweden.",
            vec!["my home country is Sweden"],
        ),
        (
            "I went hiking with my brother, Tom, last week",
            vec!["my brother is Tom"],
        ),
        ("Thanks so much, my friend, Anna!", vec![]),
        (
            "Organizing a basketball camp for kids in my hometown last summer was awesome.",
            vec!["I organized a basketball camp for kids in my hometown last summer"],
        ),
        (
            "Marrying my partner and promising to be together forever was the best day",
            vec!["I married my partner and promised to be together forever"],
        ),
        (
            "Marrying my partner and zorbing together was the best day",
            vec![],
        ),
        // how it felt, or no one's in particular
        ("Seeing my kids so happy at the beach was the best!", vec![]),
        ("Organizing a camp is hard work", vec![]),
        ("Organizing a camp was hard work", vec![]),
        (
            "this is my prized possession, a basketball signed by my favorite player.",
            vec!["my prized possession is a basketball signed by my favorite player"],
        ),
        (
            "I took my dog, a beagle, to the vet",
            vec!["my dog is a beagle"],
        ),
        (
            "Was super nervous last week when I shared my book with my group",
            vec!["I shared my book with my group"],
        ),
        (
            "Especially after I failed the aptitude test recently, I've been stressed.",
            vec!["I failed the aptitude test recently"],
        ),
        ("I cried when I graduated", vec![]),
        ("When I look after myself, I feel better", vec![]),
        ("My favorite, Lord of the Rings, is on tonight", vec![]),
        (
            "I joined my group, 'Connected LGBTQ Activists'.",
            vec!["my group is 'Connected LGBTQ Activists'"],
        ),
        (
            "I shared the struggles I had and how much I've grown",
            vec![],
        ),
        (
            "These figurines I bought yesterday remind me of family love.",
            vec!["I bought figurines yesterday"],
        ),
        (
            "This book I read last year reminds me to pursue my dreams",
            vec!["I read a book last year"],
        ),
        (
            "The old bike we fixed up in May is still going",
            vec!["we fixed an old bike up in May"],
        ),
        // no verb of its own after: not a relative clause
        ("That dress I wore", vec![]),
        (
            "I painted this after I visited an LGBTQ center.",
            vec!["I visited an LGBTQ center."],
        ),
        ("I painted a lake after I visited Como.", vec![]),
        ("The kids I teach love it", vec![]),
    ] {
        assert_eq!(inner(clause, Some("Anna")), expected, "{clause}");
    }
}

/// Through the whole extractor: each salvaged clause is checked, named
/// and dated like any other.
#[test]
fn salvaged_facts_become_memories() {
    for (said, want) in [
        (
            "Ines: This bracelet is special - a gift from my aunt in my home town, Porto.",
            "Ines's home town is Porto.",
        ),
        (
            "Ines: Yes I do- Biscuit, my hamster. He's been great.",
            "Biscuit is Ines's hamster.",
        ),
        (
            "Ines: Our three-year-old is so cute, her name is Lua!",
            "Ines's three-year-old is named Lua.",
        ),
        (
            "Ines: The hardest part was that we had to say goodbye to Rex. He was with us for 12 years.",
            "Ines had to say goodbye to Rex.|Rex was with Ines for 12 years.",
        ),
        (
            "Ines: These mugs I bought yesterday make me smile.",
            "Ines bought mugs on 7 May 2023.",
        ),
        (
            "Ines: I drew this after I visited the botanical garden.",
            "Ines visited the botanical garden.",
        ),
        (
            "Ines: Things have been busy; last week I ran my first half marathon.",
            "Ines ran their first half marathon in the week of 1 May 2023.",
        ),
        // nothing that happened (a habit, a state); no title cut short
        ("Ines: I love this when I look after myself.", ""),
        ("Ines: I painted it when I was young.", ""),
        (
            "Ines: My favorite, Lord of the Rings, is on tonight.",
            "Ines's favorite, Lord of the Rings, is on 8 May 2023.",
        ),
    ] {
        let got = super::super::tests::chat(&[said, "Tom: Nice!"]);
        let want: Vec<&str> = want.split('|').filter(|w| !w.is_empty()).collect();
        assert_eq!(got, want, "{said}");
    }
}

#[test]
fn subordinate_clauses_stand_alone() {
    for (clause, expected) in [
        (
            "I painted this after I visited an LGBTQ center.",
            Some("I visited an LGBTQ center."),
        ),
        (
            "I bought it when we were in Rome last May",
            Some("we were in Rome last May"),
        ),
        // nothing said of its own
        ("I love it because it's so calming", None),
        ("I made it, after all", None),
        ("I made it before", None),
        (
            "Was super nervous last week when I shared my book with my group",
            Some("I shared my book with my group"),
        ),
        // a habit or a state is not something that happened
        ("I feel great when I look after myself", None),
        ("I loved it when I was young", None),
        // an age reached says when
        ("I started it when I turned ten", None),
        (
            "I remember it when I was playing with the kids",
            Some("I was playing with the kids"),
        ),
        // a state newly reached is news
        (
            "It feels like all the hard work has paid off now that I'm an assistant manager",
            Some("I'm an assistant manager"),
        ),
        ("It feels like it's over now that", None),
    ] {
        assert_eq!(subordinate(clause).as_deref(), expected, "{clause}");
    }
}
