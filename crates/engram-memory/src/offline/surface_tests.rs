//! The cases of [`super`] (surface: a memory tidied).
use super::tidy;

#[test]
fn a_memory_is_tidied() {
    let check = |said: &str, want: &str| assert_eq!(tidy(said), want, "{said}");
    check("Luis also plays the cello", "Luis plays the cello.");
    check(
        "Gina's sister also lost her job!",
        "Gina's sister lost her job.",
    );
    check(
        "Omar finished the question haha",
        "Omar finished the question.",
    );
    check("Ana moved to Rome, btw", "Ana moved to Rome.");
    check(
        "Jonas is a bit nervous about flying though!",
        "Jonas is a bit nervous about flying.",
    );
    // "also" not right after the subject stays
    check(
        "Ana plays chess and also paints",
        "Ana plays chess and also paints.",
    );
    check("the also-rans lost", "The also-rans lost.");
}
