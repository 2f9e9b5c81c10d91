//! Reading a gcfg section against a table of known keys: the one lookup the AWS and legacy
//! vSphere transforms share, with one style of warning and error. A key is found without
//! regard to case, as gcfg finds a field; an unknown key is dropped with a warning; a key with
//! no value, or a value that does not read as its field's type, is an error naming the section
//! and the key.

use super::ini::Section;
use anyhow::{Result, anyhow};

/// What a gcfg bool accepts ([`super::gcfg::parse_bool`]).
pub(super) const BOOL: &str = "true or false (yes/no, on/off, 1/0)";
/// What a gcfg integer accepts.
pub(super) const WHOLE_NUMBER: &str = "a whole number";
/// What a port accepts.
pub(super) const PORT: &str = "a port number";

/// The index in `table` of the known key that `key` names in `section`, or None after a
/// warning that the key is dropped. `name` gives a known key's name, or None where it does
/// not apply in this section.
pub(super) fn find<K>(
    section: &Section,
    key: &str,
    table: &[K],
    name: impl Fn(&K) -> Option<&'static str>,
    warnings: &mut Vec<String>,
) -> Option<usize> {
    let found = table
        .iter()
        .position(|k| name(k).is_some_and(|n| n.eq_ignore_ascii_case(key)));
    if found.is_none() {
        warnings.push(format!("dropped unknown key {} {key}", section.header()));
    }
    found
}

/// The error for a key written without `= value` where its field needs one.
pub(super) fn no_value(section: &Section, name: &str) -> anyhow::Error {
    anyhow!("{} {name} has no value; write {name} = …", section.header())
}

/// `value` read with `parse`, or an error saying what the key `name` expects.
pub(super) fn read<T>(
    section: &Section,
    name: &str,
    value: &str,
    parse: impl FnOnce(&str) -> Option<T>,
    expected: &str,
) -> Result<T> {
    parse(value).ok_or_else(|| {
        anyhow!(
            "{} {name} is {value:?}; expected {expected}",
            section.header()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_found_without_case_and_unknown_ones_are_dropped_with_a_warning() {
        let section = Section::new("Global", None);
        let table = ["Zone", "Region"];
        let mut warnings = Vec::new();
        assert_eq!(
            find(&section, "region", &table, |k| Some(*k), &mut warnings),
            Some(1)
        );
        assert_eq!(
            find(&section, "Zone", &table, |_| None, &mut warnings),
            None
        );
        assert_eq!(warnings, ["dropped unknown key [Global] Zone"]);
    }

    #[test]
    fn errors_name_the_section_the_key_and_what_it_expects() {
        let section = Section::new("ServiceOverride", Some("1"));
        assert_eq!(
            no_value(&section, "URL").to_string(),
            "[ServiceOverride \"1\"] URL has no value; write URL = …"
        );
        let err =
            read(&section, "Port", "x", |v| v.parse::<u16>().ok(), PORT).expect_err("not a number");
        assert_eq!(
            format!("{err:#}"),
            "[ServiceOverride \"1\"] Port is \"x\"; expected a port number"
        );
    }
}
