//! Property tests of text parsers with proptest: random text and mutations of valid text give
//! an error or a value, never a panic, and what parses formats back to text that parses to
//! the same value.
//!
//! [`check_text_formats`] runs these properties on a game's [`Notation`] (positions and
//! moves); [`check_parser`] on any parser with a formatter, such as a record format, a
//! protocol's line reader or an option string; [`check_reader`] on anything that reads input
//! without writing it back (a protocol's line handler).

use std::fmt::Debug;
use std::panic::{catch_unwind, AssertUnwindSafe};

use proptest::collection::vec;
use proptest::prelude::{any, prop_oneof, Just, Strategy};
use proptest::test_runner::{
    Config as RunnerConfig, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner,
};

use super::CheckFailure;
use crate::game::{MoveList, Notation};
use crate::record::{read_text, write_text};
use crate::zobrist::mix64;

/// One change to a text: what a damaged file, a typo or a cut line does to it.
#[derive(Clone, Debug)]
pub enum Mutation {
    /// Keep the first `n` characters (modulo the length plus one).
    Truncate(usize),
    /// Replace the character at `at` (modulo the length) with `with`.
    Replace(usize, char),
    /// Insert `with` before the character at `at` (modulo the length plus one).
    Insert(usize, char),
    /// Remove the character at `at` (modulo the length).
    Delete(usize),
    /// Repeat the text `n` times, joined by nothing.
    Repeat(usize),
}

impl Mutation {
    /// `text` with this change.
    pub fn apply(&self, text: &str) -> String {
        let chars: Vec<char> = text.chars().collect();
        let n = chars.len();
        let mut out = chars.clone();
        match *self {
            Mutation::Truncate(k) => out.truncate(k % (n + 1)),
            Mutation::Replace(at, c) if n > 0 => out[at % n] = c,
            Mutation::Insert(at, c) => out.insert(at % (n + 1), c),
            Mutation::Delete(at) if n > 0 => {
                out.remove(at % n);
            }
            Mutation::Repeat(k) => return text.repeat(k),
            _ => {}
        }
        out.into_iter().collect()
    }
}

/// Characters a mutation puts in: the text's own alphabet of digits, letters and
/// punctuation, separators and line ends, control characters, and a few beyond ASCII.
fn a_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => proptest::char::range(' ', '~'),
        1 => proptest::sample::select(vec!['\n', '\r', '\t', '\0', '\u{7f}', '\u{1}']),
        1 => proptest::sample::select(vec!['é', '\u{200b}', '\u{fffd}', '\u{1f600}', 'Ω']),
    ]
}

/// One mutation, then maybe a second.
pub fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    let one = prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), a_char()).prop_map(|(at, c)| Mutation::Replace(at, c)),
        (any::<usize>(), a_char()).prop_map(|(at, c)| Mutation::Insert(at, c)),
        any::<usize>().prop_map(Mutation::Delete),
        (2..4usize).prop_map(Mutation::Repeat),
    ];
    vec(one, 1..=2)
}

/// Random text: printable ASCII with separators, or arbitrary characters.
pub fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        vec(a_char(), 0..80).prop_map(|cs| cs.into_iter().collect::<String>()),
        ".{0,40}",
        Just(String::new()),
    ]
}

fn runner(cases: u32, seed: u64) -> TestRunner {
    let mut config = RunnerConfig::with_cases(cases);
    config.failure_persistence = None;
    config.max_shrink_iters = 2_000;
    let mut bytes = [0u8; 32];
    for (i, chunk) in bytes.chunks_mut(8).enumerate() {
        chunk.copy_from_slice(&mix64(seed.wrapping_add(i as u64)).to_le_bytes());
    }
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

fn no_panic<T>(what: impl Fn() -> String, f: impl FnOnce() -> T) -> Result<T, TestCaseError> {
    catch_unwind(AssertUnwindSafe(f))
        .map_err(|_| TestCaseError::fail(format!("{} panicked", what())))
}

fn verdict(result: Result<(), TestError<impl Debug>>) -> Result<(), CheckFailure> {
    match result {
        Ok(()) => Ok(()),
        Err(TestError::Fail(reason, input)) => {
            Err(CheckFailure(format!("{reason}\nminimal input: {input:?}")))
        }
        Err(TestError::Abort(reason)) => Err(CheckFailure(format!("aborted: {reason}"))),
    }
}

/// Checks a parser against its formatter on `cases` random inputs (seeded by `seed`): the
/// formatted text of each of `values` mutated, and random text. Every input gives `Ok` or
/// `Err`, never a panic; every value that parses formats to a text that parses to an equal
/// value; and each of `values` formats to a text that parses back to it.
///
/// ```
/// use ply::testing::check_parser;
///
/// let values: Vec<u32> = vec![0, 7, 1_000_000];
/// let checked =
///     check_parser(&values, |v| v.to_string(), |t| t.parse::<u32>().map_err(|e| e.to_string()), 200, 1);
/// assert!(checked.is_ok());
/// ```
///
/// # Errors
/// The first failure proptest finds, shrunk, with its input.
pub fn check_parser<T, E>(
    values: &[T],
    format: impl Fn(&T) -> String,
    parse: impl Fn(&str) -> Result<T, E>,
    cases: u32,
    seed: u64,
) -> Result<(), CheckFailure>
where
    T: PartialEq + Debug,
    E: Debug,
{
    for v in values {
        let text = format(v);
        match parse(&text) {
            Ok(back) if back == *v => {}
            other => {
                return Err(CheckFailure(format!(
                    "{v:?} is written {text:?}, which parses as {other:?}"
                )))
            }
        }
    }
    let round_trip = |text: &str| -> Result<(), TestCaseError> {
        let parsed = no_panic(|| format!("parsing {text:?}"), || parse(text))?;
        if let Ok(value) = parsed {
            let again = no_panic(|| format!("formatting {value:?}"), || format(&value))?;
            let back = no_panic(|| format!("parsing {again:?}"), || parse(&again))?;
            if !matches!(&back, Ok(b) if *b == value) {
                return Err(TestCaseError::fail(format!(
                    "{text:?} parses as {value:?}, written {again:?}, which parses as {back:?}"
                )));
            }
        }
        Ok(())
    };
    let mut runner = runner(cases, seed);
    if !values.is_empty() {
        let strategy = (0..values.len(), mutations());
        verdict(runner.run(&strategy, |(i, changes)| {
            let text = changes.iter().fold(format(&values[i]), |t, m| m.apply(&t));
            round_trip(&text)
        }))?;
    }
    verdict(runner.run(&any_text(), |text| round_trip(&text)))
}

/// Feeds `read` (a protocol's line handler, a reader of some input) `cases` random inputs
/// (seeded by `seed`): each of `samples` mutated, and random text. Passes when `read` never
/// panics and never returns `Err` (its own check of what it made of the input, such as
/// "every answer is a line of the protocol").
///
/// ```
/// use ply::testing::{check_reader, CheckFailure};
///
/// let read = |line: &str| match line.trim().parse::<i64>() {
///     Ok(n) if n.checked_mul(2).is_none() => Err(CheckFailure(format!("{n} doubles past i64"))),
///     _ => Ok(()),
/// };
/// assert!(check_reader(&["12", "-7"], read, 300, 4).is_ok());
/// ```
///
/// # Errors
/// The first failure proptest finds, shrunk, with its input.
pub fn check_reader<E: std::fmt::Display>(
    samples: &[&str],
    read: impl Fn(&str) -> Result<(), E>,
    cases: u32,
    seed: u64,
) -> Result<(), CheckFailure> {
    let one = |text: &str| -> Result<(), TestCaseError> {
        no_panic(|| format!("reading {text:?}"), || read(text))?
            .map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))
    };
    let mut runner = runner(cases, seed);
    if !samples.is_empty() {
        let strategy = (0..samples.len(), mutations());
        verdict(runner.run(&strategy, |(i, changes)| {
            one(&changes.iter().fold(samples[i].to_string(), |t, m| m.apply(&t)))
        }))?;
    }
    verdict(runner.run(&any_text(), |text| one(&text)))
}

/// Checks a game's [`Notation`] with proptest on `cases` random positions (seeded random
/// games of up to `max_plies` plies, seeded by `seed`): the position's text and a legal
/// move's text, mutated, and random text, each give an error or a value and never a panic;
/// a position that parses formats to text that parses to the same text again; a move that
/// parses is a legal move; and the game's record text ([`crate::record::write_text`]) of the
/// moves played, mutated, reads ([`crate::record::read_text`]) as an error or as a game whose
/// text reads back the same. Returns the number of texts tried.
///
/// ```
/// use ply::games::TicTacToe;
///
/// let tried = ply::testing::check_text_formats(&TicTacToe, 100, 9, 3).unwrap();
/// assert!(tried >= 600);
/// ```
///
/// # Errors
/// The first failure proptest finds, shrunk, with its input.
pub fn check_text_formats<G: Notation>(
    game: &G,
    cases: u32,
    max_plies: usize,
    seed: u64,
) -> Result<usize, CheckFailure> {
    let tried = std::cell::Cell::new(0usize);
    let strategy =
        (vec(any::<u32>(), 0..=max_plies), mutations(), mutations(), mutations(), any_text());
    let mut runner = runner(cases, seed);
    let result = runner.run(&strategy, |(choices, for_state, for_move, for_record, random)| {
        let start = game.initial_state();
        let mut state = start.clone();
        let mut moves = MoveList::new();
        let mut played = Vec::new();
        for choice in &choices {
            moves.clear();
            game.generate_moves(&state, &mut moves);
            if moves.is_empty() || game.outcome(&state).is_some() {
                break;
            }
            let mv = moves[*choice as usize % moves.len()];
            played.push(mv);
            game.apply(&mut state, mv);
        }
        let record = write_text(game, &start, &played);
        for input in [for_record.iter().fold(record, |t, m| m.apply(&t)), random.clone()] {
            tried.set(tried.get() + 1);
            let read = no_panic(|| format!("read_text {input:?}"), || read_text(game, &input))?;
            if let Ok((s, mvs)) = read {
                let again = write_text(game, &s, &mvs);
                let back = no_panic(|| format!("read_text {again:?}"), || read_text(game, &again))?;
                let third = back.as_ref().ok().map(|(s, m)| write_text(game, s, m));
                if third.as_deref() != Some(again.as_str()) {
                    return Err(TestCaseError::fail(format!(
                        "the record {input:?} reads, is written {again:?}, which reads back as \
                         {third:?}"
                    )));
                }
            }
        }
        moves.clear();
        game.generate_moves(&state, &mut moves);
        let text = game.format_state(&state);
        for input in [for_state.iter().fold(text.clone(), |t, m| m.apply(&t)), random.clone()] {
            tried.set(tried.get() + 1);
            let parsed =
                no_panic(|| format!("parse_state {input:?}"), || game.parse_state(&input))?;
            if let Ok(s) = parsed {
                let again = no_panic(|| format!("format_state {s:?}"), || game.format_state(&s))?;
                let back =
                    no_panic(|| format!("parse_state {again:?}"), || game.parse_state(&again))?;
                let third = back.as_ref().ok().map(|b| game.format_state(b));
                if third.as_deref() != Some(again.as_str()) {
                    return Err(TestCaseError::fail(format!(
                        "{input:?} parses, is written {again:?}, which reads back as {third:?}"
                    )));
                }
            }
        }
        let move_text = if moves.is_empty() {
            String::new()
        } else {
            game.format_move(&state, moves[choices.len() % moves.len()])
        };
        for input in [for_move.iter().fold(move_text, |t, m| m.apply(&t)), random] {
            tried.set(tried.get() + 1);
            let parsed = no_panic(
                || format!("parse_move {input:?} on {text:?}"),
                || game.parse_move(&state, &input),
            )?;
            if let Ok(mv) = parsed {
                if !moves.contains(&mv) {
                    return Err(TestCaseError::fail(format!(
                        "{input:?} parses as {mv:?}, not a legal move of {text:?}"
                    )));
                }
            }
        }
        Ok(())
    });
    verdict(result).map(|()| tried.get())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{ConnectFour, TicTacToe};

    #[test]
    fn mutations_change_text_as_described() {
        assert_eq!(Mutation::Truncate(2).apply("abcd"), "ab");
        assert_eq!(Mutation::Truncate(7).apply("abcd"), "ab");
        assert_eq!(Mutation::Replace(5, 'x').apply("abcd"), "axcd");
        assert_eq!(Mutation::Insert(4, 'x').apply("abcd"), "abcdx");
        assert_eq!(Mutation::Delete(0).apply("abcd"), "bcd");
        assert_eq!(Mutation::Delete(0).apply(""), "");
        assert_eq!(Mutation::Repeat(2).apply("ab"), "abab");
    }

    #[test]
    fn the_bundled_games_text_formats_hold() {
        check_text_formats(&TicTacToe, 300, 9, 1).unwrap();
        check_text_formats(&ConnectFour::standard(), 300, 30, 2).unwrap();
    }

    /// A parser that panics on some input is caught, with the input.
    #[test]
    fn a_panicking_parser_fails_with_its_input() {
        let parse = |t: &str| -> Result<u8, std::num::ParseIntError> {
            if t.contains('!') {
                panic!("bang");
            }
            t.parse::<u8>()
        };
        let e = check_parser(&[1u8, 20], |v| v.to_string(), parse, 2_000, 3).unwrap_err().0;
        assert!(e.contains("panicked") && e.contains('!'), "{e}");
        // A formatter whose output does not read back is caught too.
        let e = check_parser(&[5u8], |v| format!("{v}."), |t| t.parse::<u8>(), 10, 3);
        let e = e.unwrap_err().0;
        assert!(e.contains("is written \"5.\""), "{e}");
    }
}
