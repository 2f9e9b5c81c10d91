//! The INI model shared by the AWS, `OpenStack` and (legacy) vSphere cloud configs: a reader and a
//! writer for the git-config syntax that gcfg (`gopkg.in/gcfg.v1`) implements, because gcfg is
//! what the AWS, `OpenStack` and vSphere cloud providers use to read their `cloud.conf`.
//!
//! Reading follows gcfg (go-gcfg/gcfg `scanner/scanner.go`, `read.go`): section and key names
//! are identifiers (a letter, then letters, digits and `-`) compared without case; subsection
//! names are quoted and compared exactly; repeated sections are merged; a key with no `=` is a
//! "blank" key; `#` or `;` outside double quotes starts a comment; surrounding whitespace is
//! trimmed, inner whitespace kept; `"…"` quotes, `\\ \" \n \t` escapes and a trailing `\` that
//! continues the value on the next line are understood; carriage returns are dropped.
//!
//! Writing lays sections out as CCCMO's go-ini writer does (`key = value` with the `=` signs of a
//! section aligned, a blank line between sections), so that well-formed configs come out byte for
//! byte as the reference's, but quotes values the gcfg way: a value with `#`, `;`, `"`, `\`, a
//! newline or surrounding whitespace is written in double quotes with backslash escapes, never
//! with go-ini's backticks or triple quotes, which gcfg cannot read (docs/differences-from-cccmo.md).

use anyhow::{Result, bail};
use std::collections::HashMap;
use std::fmt;

/// "the value of \"key\"", for a message: formatted only when a message is written (a value is
/// read for every key, and formatting the phrase eagerly cost about 700 instructions a key).
struct ValueOf<'a>(&'a str);

impl fmt::Display for ValueOf<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the value of {:?}", self.0)
    }
}

/// One `key = value` line. `value` is `None` for a blank key (a name without `=`), which gcfg
/// reads as `true` for booleans and as "clear the list" for multi-valued keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) key: String,
    pub(crate) value: Option<String>,
}

/// A `[name]` or `[name "sub"]` section with its entries in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Section {
    pub(crate) name: String,
    pub(crate) sub: Option<String>,
    pub(crate) entries: Vec<Entry>,
}

/// A whole INI file: its sections in file order, each (name, subsection) pair once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Ini {
    pub(crate) sections: Vec<Section>,
}

impl Section {
    pub(crate) fn new(name: &str, sub: Option<&str>) -> Self {
        Self {
            name: name.to_owned(),
            sub: sub.map(str::to_owned),
            entries: Vec::new(),
        }
    }

    /// Whether this section is `[name]` / `[name "sub"]` (names compare without case, as gcfg does).
    pub(crate) fn is(&self, name: &str, sub: Option<&str>) -> bool {
        self.name.eq_ignore_ascii_case(name) && self.sub.as_deref() == sub
    }

    /// The last value given for `key` (gcfg: the last assignment wins); a blank key reads as "".
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .rev()
            .find(|entry| entry.key.eq_ignore_ascii_case(key))
            .map(|entry| entry.value.as_deref().unwrap_or(""))
    }

    pub(crate) fn contains(&self, key: &str) -> bool {
        self.entries
            .iter()
            .any(|entry| entry.key.eq_ignore_ascii_case(key))
    }

    /// Removes every assignment of `key`, returning the removed values in order.
    pub(crate) fn remove(&mut self, key: &str) -> Vec<Option<String>> {
        let mut removed = Vec::new();
        self.entries.retain(|entry| {
            let hit = entry.key.eq_ignore_ascii_case(key);
            if hit {
                removed.push(entry.value.clone());
            }
            !hit
        });
        removed
    }

    /// Sets `key` to `value`: the first assignment is overwritten in place (keeping its spelling)
    /// and later ones removed; a missing key is appended. Returns the value it replaced.
    pub(crate) fn set(&mut self, key: &str, value: &str) -> Option<String> {
        let Some(first) = self
            .entries
            .iter()
            .position(|entry| entry.key.eq_ignore_ascii_case(key))
        else {
            self.entries.push(Entry {
                key: key.to_owned(),
                value: Some(value.to_owned()),
            });
            return None;
        };
        let old = self.get(key).map(str::to_owned);
        let mut index = 0;
        self.entries.retain(|entry| {
            let keep = index <= first || !entry.key.eq_ignore_ascii_case(key);
            index += 1;
            keep
        });
        if let Some(entry) = self.entries.get_mut(first) {
            entry.value = Some(value.to_owned());
        }
        old
    }

    /// Appends `key = value` (used for multi-valued keys).
    pub(crate) fn push(&mut self, key: &str, value: &str) {
        self.entries.push(Entry {
            key: key.to_owned(),
            value: Some(value.to_owned()),
        });
    }

    /// The header as written in a file and in messages: `[Name]` or `[Name "sub"]`.
    pub(crate) fn header(&self) -> String {
        match &self.sub {
            None => format!("[{}]", self.name),
            Some(sub) => format!("[{} \"{}\"]", self.name, escape(sub)),
        }
    }
}

impl Ini {
    /// The section `[name]`/`[name "sub"]`, if the file has one.
    pub(crate) fn section(&self, name: &str, sub: Option<&str>) -> Option<&Section> {
        self.sections.iter().find(|section| section.is(name, sub))
    }

    /// The section `[name]`/`[name "sub"]`, appended empty if the file has none.
    pub(crate) fn ensure_section(&mut self, name: &str, sub: Option<&str>) -> &mut Section {
        let index = position_or_push(&mut self.sections, name, sub);
        // In bounds: the index was just found or pushed.
        &mut self.sections[index]
    }

    /// Removes every section named `name` (any subsection), returning how many there were.
    pub(crate) fn remove_sections(&mut self, name: &str) -> usize {
        let before = self.sections.len();
        self.sections
            .retain(|section| !section.name.eq_ignore_ascii_case(name));
        before - self.sections.len()
    }

    /// Writes the file in go-ini's layout with gcfg quoting; ends with a newline unless empty.
    pub(crate) fn to_text(&self) -> String {
        let mut out = String::new();
        for (index, section) in self.sections.iter().enumerate() {
            if index > 0 {
                out.push('\n');
            }
            out.push_str(&section.header());
            out.push('\n');
            let width = section
                .entries
                .iter()
                .filter(|entry| entry.value.is_some())
                .map(|entry| entry.key.chars().count())
                .max()
                .unwrap_or(0);
            for entry in &section.entries {
                match &entry.value {
                    None => out.push_str(&entry.key),
                    Some(value) => {
                        // `{:width$}` pads by characters, as this does; written out, since
                        // format! was three fifths of writing an AWS cloud.conf (callgrind:
                        // 45 K instructions before, 20 K after).
                        let value = quote(value);
                        out.push_str(&entry.key);
                        let pad = width.saturating_sub(entry.key.chars().count());
                        out.extend(std::iter::repeat_n(' ', pad));
                        out.push_str(" =");
                        if !value.is_empty() {
                            out.push(' ');
                            out.push_str(&value);
                        }
                    }
                }
                out.push('\n');
            }
        }
        out
    }
}

/// The index of section `[name]`/`[name "sub"]`, appended if missing: gcfg merges a section
/// that appears twice into one.
fn position_or_push(sections: &mut Vec<Section>, name: &str, sub: Option<&str>) -> usize {
    if let Some(index) = sections.iter().position(|s| s.is(name, sub)) {
        index
    } else {
        sections.push(Section::new(name, sub));
        sections.len() - 1
    }
}

/// A value as gcfg reads it back: bare when that is unambiguous, else double-quoted with
/// backslash escapes. A carriage return cannot be written (gcfg drops them even inside quotes);
/// values read by [`parse`] never hold one.
pub(crate) fn quote(value: &str) -> String {
    let edge_space = |c: Option<char>| matches!(c, Some(' ' | '\t'));
    let needs_quotes = edge_space(value.chars().next())
        || edge_space(value.chars().next_back())
        || value.contains(['"', '\\', '#', ';', '\n']);
    if needs_quotes {
        format!("\"{}\"", escape(value))
    } else {
        value.replace('\r', "")
    }
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            _ => out.push(c),
        }
    }
    out
}

/// Parses `text` as gcfg does. Returns the file and notes for the caller's warnings (a `#` or `;`
/// glued to a value, which gcfg reads as the start of a comment). Errors name the line and the
/// key, never a value, since values may be passwords.
pub(crate) fn parse(text: &str) -> Result<(Ini, Vec<String>)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    Parser {
        chars: text.chars().collect(),
        pos: 0,
        line: 1,
        ini: Ini::default(),
        sections: HashMap::new(),
        notes: Vec::new(),
    }
    .run()
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    line: usize,
    ini: Ini,
    /// Index of each section read so far in `ini.sections`, by (ASCII-lowercased name, sub): the
    /// same match as [`Section::is`], in constant time. A linear search per header made parsing
    /// quadratic in the number of sections (1.9 s for 4,000 `[ServiceOverride]`s).
    sections: HashMap<(String, Option<String>), usize>,
    notes: Vec<String>,
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic()
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '-'
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t' | '\r')) {
            self.pos += 1;
        }
    }

    fn skip_comment(&mut self) {
        while !matches!(self.peek(), None | Some('\n')) {
            self.pos += 1;
        }
    }

    fn ident(&mut self) -> String {
        let mut name = String::new();
        while let Some(c) = self.peek().filter(|&c| is_ident(c)) {
            name.push(c);
            self.pos += 1;
        }
        name
    }

    fn fail<T>(&self, message: &str) -> Result<T> {
        bail!("cloud config line {}: {message}", self.line)
    }

    /// After a header or a value only a comment or the end of the line may follow.
    fn end_of_line(&mut self, what: &dyn fmt::Display) -> Result<()> {
        self.skip_blanks();
        match self.peek() {
            None | Some('\n') => Ok(()),
            Some('#' | ';') => {
                self.skip_comment();
                Ok(())
            }
            Some(_) => self.fail(&format!("unexpected text after {what}")),
        }
    }

    fn run(mut self) -> Result<(Ini, Vec<String>)> {
        if self.chars.contains(&'\0') {
            bail!("cloud config holds a NUL character");
        }
        let mut current: Option<usize> = None;
        loop {
            self.skip_blanks();
            match self.peek() {
                None => return Ok((self.ini, self.notes)),
                Some('\n') => {
                    self.bump();
                }
                Some('#' | ';') => self.skip_comment(),
                Some('[') => {
                    self.bump();
                    current = Some(self.header()?);
                }
                Some(c) if is_ident_start(c) => {
                    let key = self.ident();
                    let Some(index) = current else {
                        return self.fail(&format!("key {key:?} comes before any [section]"));
                    };
                    let value = self.assignment(&key)?;
                    if let Some(section) = self.ini.sections.get_mut(index) {
                        section.entries.push(Entry { key, value });
                    }
                }
                Some(c) => return self.fail(&format!("unexpected character {c:?}")),
            }
        }
    }

    /// `[name]` or `[name "sub"]` (the `[` already read); returns the index of its section.
    fn header(&mut self) -> Result<usize> {
        self.skip_blanks();
        if !self.peek().is_some_and(is_ident_start) {
            return self.fail("expected a section name after '['");
        }
        let name = self.ident();
        self.skip_blanks();
        let sub = if self.peek() == Some('"') {
            self.bump();
            let sub = self.quoted_subsection()?;
            if sub.is_empty() {
                return self.fail(&format!("section [{name}] has an empty subsection name"));
            }
            self.skip_blanks();
            Some(sub)
        } else {
            None
        };
        if self.peek() != Some(']') {
            return self.fail(&format!("expected ']' to close section [{name}]"));
        }
        self.bump();
        self.end_of_line(&"a section header")?;
        // gcfg merges a section that appears twice into the first one.
        let sections = &mut self.ini.sections;
        let index = *self
            .sections
            .entry((name.to_ascii_lowercase(), sub.clone()))
            .or_insert_with(|| {
                sections.push(Section::new(&name, sub.as_deref()));
                sections.len() - 1
            });
        Ok(index)
    }

    fn quoted_subsection(&mut self) -> Result<String> {
        let mut sub = String::new();
        loop {
            match self.peek() {
                None | Some('\n') => return self.fail("unterminated subsection name"),
                Some('"') => {
                    self.bump();
                    return Ok(sub);
                }
                Some('\\') => {
                    self.bump();
                    let c = self.escape(&"a subsection name")?;
                    sub.push(c);
                }
                Some(c) => {
                    self.bump();
                    sub.push(c);
                }
            }
        }
    }

    /// The character an escape stands for (the `\` already read).
    fn escape(&mut self, place: &dyn fmt::Display) -> Result<char> {
        let c = match self.peek() {
            Some('n') => '\n',
            Some('t') => '\t',
            Some('b') => '\u{8}',
            Some('\\') => '\\',
            Some('"') => '"',
            _ => return self.fail(&format!("unknown escape sequence in {place}")),
        };
        self.bump();
        Ok(c)
    }

    /// What follows a key name: nothing (a blank key) or `= value`.
    fn assignment(&mut self, key: &str) -> Result<Option<String>> {
        self.skip_blanks();
        match self.peek() {
            None | Some('\n') => return Ok(None),
            Some('#' | ';') => {
                self.skip_comment();
                return Ok(None);
            }
            Some('=') => {
                self.bump();
            }
            Some(_) => return self.fail(&format!("expected '=' after key {key:?}")),
        }
        self.skip_blanks();
        let value = self.value(key)?;
        self.end_of_line(&ValueOf(key))?;
        Ok(Some(value))
    }

    /// gcfg's value string: whitespace outside quotes is kept only between other characters.
    fn value(&mut self, key: &str) -> Result<String> {
        let place = ValueOf(key);
        let mut value = String::new();
        let mut pending = String::new();
        let mut in_quote = false;
        let mut last_was_blank = true;
        loop {
            let Some(c) = self.peek() else {
                if in_quote {
                    return self.fail(&format!("unterminated quote in {place}"));
                }
                return Ok(value);
            };
            if !in_quote {
                match c {
                    '\n' => return Ok(value),
                    '#' | ';' => {
                        if !last_was_blank && !value.is_empty() {
                            self.notes.push(format!(
                                "line {}: {key}: the text after an unquoted '{c}' was read as a comment; quote the value if it belongs to it",
                                self.line
                            ));
                        }
                        return Ok(value);
                    }
                    ' ' | '\t' => {
                        self.bump();
                        pending.push(c);
                        last_was_blank = true;
                        continue;
                    }
                    '\r' => {
                        self.bump();
                        continue;
                    }
                    _ => {}
                }
            } else if c == '\n' {
                return self.fail(&format!("unterminated quote in {place}"));
            }
            self.bump();
            last_was_blank = false;
            if c == '\r' {
                continue;
            }
            value.push_str(&pending);
            pending.clear();
            match c {
                '"' => in_quote = !in_quote,
                '\\' if !in_quote && matches!(self.peek(), Some('\n' | '\r')) => {
                    // A trailing backslash continues the value on the next line.
                    if self.peek() == Some('\r') {
                        self.bump();
                    }
                    if self.peek() != Some('\n') {
                        return self.fail(&format!("stray carriage return in {place}"));
                    }
                    self.bump();
                }
                '\\' => value.push(self.escape(&place)?),
                _ => value.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use proptest::prelude::*;

    fn parsed(text: &str) -> Ini {
        parse(text).expect("parses").0
    }

    fn entry(key: &str, value: &str) -> Entry {
        Entry {
            key: key.into(),
            value: Some(value.into()),
        }
    }

    #[test]
    fn sections_keys_and_subsections_are_read() {
        let ini = parsed("[Global]\nZone = a\n\n[ServiceOverride \"1\"]\nService = ec2\n");
        assert_eq!(ini.sections.len(), 2);
        assert_eq!(ini.sections[0].entries, vec![entry("Zone", "a")]);
        assert_eq!(ini.sections[1].sub.as_deref(), Some("1"));
        assert_eq!(
            ini.section("global", None).and_then(|s| s.get("zone")),
            Some("a")
        );
    }

    #[test]
    fn repeated_sections_are_merged_and_the_last_value_wins() {
        let ini = parsed("[Global]\na = 1\n[Other]\n[global]\na = 2\nb = 3\n");
        assert_eq!(ini.sections.len(), 2);
        let global = ini.section("Global", None).expect("global");
        assert_eq!(global.get("a"), Some("2"));
        assert_eq!(global.get("B"), Some("3"));
    }

    #[test]
    fn subsections_merge_by_exact_name_in_file_order() {
        let ini = parsed("[S \"a\"]\nk = 1\n[S \"A\"]\n[s \"a\"]\nk = 2\n[T]\n[S \"A\"]\nj = 3\n");
        let headers: Vec<String> = ini.sections.iter().map(Section::header).collect();
        assert_eq!(headers, [r#"[S "a"]"#, r#"[S "A"]"#, "[T]"]);
        assert_eq!(ini.sections[0].get("k"), Some("2"));
        assert_eq!(ini.sections[1].get("j"), Some("3"));
    }

    #[test]
    fn quotes_escapes_and_whitespace_follow_gcfg() {
        let ini = parsed(
            "[s]\na = \"x#y;z\"\nb =   inner  space   \nc = \"tab\\there\\\\ \\\"q\\\"\"\nd = one\\\n  two\ne = a\"  \"b\n",
        );
        let s = &ini.sections[0];
        assert_eq!(s.get("a"), Some("x#y;z"));
        assert_eq!(s.get("b"), Some("inner  space"));
        assert_eq!(s.get("c"), Some("tab\there\\ \"q\""));
        assert_eq!(s.get("d"), Some("one  two"));
        assert_eq!(s.get("e"), Some("a  b"));
    }

    #[test]
    fn comments_are_skipped_and_a_glued_comment_is_noted() {
        let (ini, notes) =
            parse("# top\n[s] ; header comment\na = 1 # spaced\npassword = abc#def\n")
                .expect("parses");
        let s = &ini.sections[0];
        assert_eq!(s.get("a"), Some("1"));
        assert_eq!(s.get("password"), Some("abc"));
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].contains("password") && !notes[0].contains("def"),
            "{notes:?}"
        );
    }

    #[test]
    fn blank_keys_and_empty_values_differ() {
        let ini = parsed("[s]\nflag\nempty =\n");
        assert_eq!(ini.sections[0].entries[0].value, None);
        assert_eq!(ini.sections[0].entries[1].value.as_deref(), Some(""));
    }

    #[test]
    fn crlf_files_are_read() {
        let ini = parsed("[s]\r\na = 1\r\nb = \"x\"\r\n");
        assert_eq!(ini.sections[0].get("a"), Some("1"));
        assert_eq!(ini.sections[0].get("b"), Some("x"));
    }

    #[test]
    fn syntax_errors_name_the_line_and_never_the_value() {
        for (text, needle) in [
            ("a = 1\n", "line 1: key \"a\" comes before any [section]"),
            ("[s]\n\npassword = \"secret\n", "line 3: unterminated quote"),
            (
                "[s]\npassword = se\\qcret\n",
                "line 2: unknown escape sequence",
            ),
            ("[s\n", "line 1: expected ']'"),
            ("[s \"\"]\n", "empty subsection name"),
            ("[s] x\n", "unexpected text after a section header"),
            ("[s]\nkey value\n", "expected '=' after key \"key\""),
            ("[s]\nsnake_case = 1\n", "expected '=' after key \"snake\""),
            ("[s]\n= 1\n", "unexpected character '='"),
            ("[1s]\n", "expected a section name"),
            ("[s]\na = \0\n", "NUL"),
        ] {
            let err = format!("{:#}", parse(text).expect_err(text));
            assert!(err.contains(needle), "{text:?}: {err}");
            assert!(!err.contains("secret") && !err.contains("cret"), "{err}");
        }
    }

    #[test]
    fn writer_aligns_keys_and_separates_sections() {
        let mut ini = Ini::default();
        let global = ini.ensure_section("Global", None);
        global.push("use-clouds", "true");
        global.push("clouds-file", "/etc/openstack/secret/clouds.yaml");
        let lb = ini.ensure_section("LoadBalancer", None);
        lb.push("max-shared-lb", "1");
        lb.entries.push(Entry {
            key: "flag".into(),
            value: None,
        });
        lb.push("empty", "");
        assert_eq!(
            ini.to_text(),
            "[Global]\nuse-clouds  = true\nclouds-file = /etc/openstack/secret/clouds.yaml\n\n\
             [LoadBalancer]\nmax-shared-lb = 1\nflag\nempty         =\n"
        );
    }

    #[test]
    fn writer_quotes_values_gcfg_can_not_read_bare() {
        for (value, written) in [
            ("a#b", "\"a#b\""),
            ("a;b", "\"a;b\""),
            ("say \"hi\"", "\"say \\\"hi\\\"\""),
            ("back\\slash", "\"back\\\\slash\""),
            ("two\nlines", "\"two\\nlines\""),
            (" padded ", "\" padded \""),
            ("`tick`", "`tick`"),
            ("plain value", "plain value"),
        ] {
            assert_eq!(quote(value), written, "{value:?}");
        }
    }

    #[test]
    fn set_overwrites_in_place_and_drops_duplicates() {
        let mut s = Section::new("Global", None);
        s.push("a", "1");
        s.push("cloud", "x");
        s.push("b", "2");
        s.push("Cloud", "y");
        assert_eq!(s.set("cloud", "openstack").as_deref(), Some("y"));
        assert_eq!(
            s.entries,
            vec![
                entry("a", "1"),
                entry("cloud", "openstack"),
                entry("b", "2")
            ]
        );
        assert_eq!(s.set("new", "v"), None);
        assert_eq!(s.remove("A"), vec![Some("1".to_owned())]);
    }

    fn key_strategy() -> impl Strategy<Value = String> {
        "[A-Za-z][A-Za-z0-9-]{0,12}"
    }

    fn value_strategy() -> impl Strategy<Value = Option<String>> {
        // Everything gcfg can carry: any text without NUL or carriage return.
        prop_oneof![
            1 => Just(None),
            8 => "[^\u{0}\r]{0,24}".prop_map(Some),
            4 => proptest::collection::vec(
                prop_oneof![
                    Just("#".to_owned()), Just(";".to_owned()), Just("\"".to_owned()),
                    Just("\\".to_owned()), Just(" ".to_owned()), Just("\t".to_owned()),
                    Just("\n".to_owned()), Just("`".to_owned()), Just("'".to_owned()),
                    Just("=".to_owned()), Just("[x]".to_owned()), "[a-z0-9]{1,4}",
                ],
                0..8,
            )
            .prop_map(|parts| Some(parts.concat())),
        ]
    }

    fn ini_strategy() -> impl Strategy<Value = Ini> {
        let section = (
            key_strategy(),
            proptest::option::of("[^\u{0}\r]{1,10}"),
            proptest::collection::vec((key_strategy(), value_strategy()), 0..6),
        );
        proptest::collection::vec(section, 0..4).prop_map(|sections| {
            let mut ini = Ini::default();
            for (name, sub, entries) in sections {
                let section = ini.ensure_section(&name, sub.as_deref());
                for (key, value) in entries {
                    section.entries.push(Entry { key, value });
                }
            }
            ini
        })
    }

    proptest! {
        #[test]
        fn any_value_survives_a_round_trip(ini in ini_strategy()) {
            let text = ini.to_text();
            let (back, notes) = parse(&text).expect("our own output parses");
            prop_assert_eq!(back, ini, "{}", text);
            prop_assert!(notes.is_empty());
        }

        #[test]
        fn parsing_arbitrary_text_never_panics(text in "[\\[\\]\"\\\\#;= a-z\n\r\t]{0,64}") {
            let _ = parse(&text);
        }
    }
}
