//! What the installer-test case files (`testdata/installer-tests/*/cases.yaml`) share: the file
//! read as one document, its string fields, and the check that each installer version's test is
//! carried whole (its `source` names the upstream file and test, each version how many cases
//! that version's test has).

use crate::common::*;
use serde_json::Value;
use std::collections::BTreeSet;

/// `testdata/installer-tests/<kind>/cases.yaml`, parsed.
pub fn cases_file(kind: &str) -> Value {
    let path = root().join(format!("testdata/installer-tests/{kind}/cases.yaml"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_all(&text).remove(0)
}

/// The string at `key` of `value`.
pub fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} in {value}"))
}

/// The file's `source` names `upstream` and `test`, and for each version it lists, the cases
/// of that version that `counted` keeps are as many as its `cases` says, by name. Returns the
/// cases.
pub fn assert_each_version_is_carried_whole<'a>(
    file: &'a Value,
    upstream: &str,
    test: &str,
    counted: impl Fn(&Value) -> bool,
) -> &'a [Value] {
    let source = &file["source"];
    assert_eq!(text(source, "file"), upstream);
    assert_eq!(text(source, "test"), test);
    let cases = file["cases"].as_array().expect("cases");
    for (version, meta) in source["versions"].as_object().expect("versions") {
        let names: BTreeSet<&str> = cases
            .iter()
            .filter(|c| text(c, "version") == version && counted(c))
            .map(|c| text(c, "case"))
            .collect();
        assert_eq!(
            Some(names.len() as u64),
            meta["cases"].as_u64(),
            "{version}: {names:?}"
        );
    }
    cases
}
