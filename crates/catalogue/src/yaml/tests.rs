use super::read::*;
use super::write::*;
use serde_json::json;

#[test]
fn each_byte_class_holds_the_bytes_its_rule_names() {
    for b in 0..=u8::MAX {
        let class = CLASSES[usize::from(b)];
        let printable = (b' '..=b'~').contains(&b);
        let key = b.is_ascii_alphanumeric() || b"-_./ ".contains(&b);
        assert_eq!(class & KEY != 0, key, "{b:#04x} in a key");
        assert_eq!(class & PRINTABLE != 0, printable, "{b:#04x} printable");
        assert_eq!(
            class & PLAIN != 0,
            printable && !b"#:".contains(&b),
            "{b:#04x} plain"
        );
        assert_eq!(
            class & BLOCK != 0,
            printable || b == b'\n',
            "{b:#04x} in a block"
        );
    }
}

#[test]
fn deep_indentation_is_written_whole() {
    let mut value = json!("x");
    for _ in 0..40 {
        value = json!({ "k": value });
    }
    let text = to_string(&value).expect("serialises");
    let last = text.lines().last().expect("a line");
    assert_eq!(last, format!("{}k: x", " ".repeat(78)));
    assert_eq!(
        text,
        saphyr_to_string(&value).expect("serde-saphyr writes it")
    );
}

#[test]
fn multi_document_stream_skips_empty_documents() {
    let docs = documents("---\na: 1\n---\n---\nb: 2\n").expect("parses");
    assert_eq!(docs, vec![json!({"a": 1}), json!({"b": 2})]);
}

#[test]
fn json_the_shortcut_might_read_differently_goes_to_the_yaml_parser() {
    assert!(json_document(r#"{"a": {"b": [1, "x", true, null]}}"#).is_some());
    for declined in [
        r#"{"a": 1, "a": 2}"#,
        r#"{"a": 1.5}"#,
        r#"{"a": "\u00e9"}"#,
        "{\"a\":\t1}",
        "{\"a\":\"x\u{7f}y\"}",
        "{\"a\":\"x\u{9f}y\"}",
        "{\"a\":\"\u{fffe}\"}",
        "{\"a\":\"caf\u{e9}\"}",
        r#"["a"]"#,
        r#"{"a": 1} x"#,
    ] {
        assert!(json_document(declined).is_none(), "{declined}");
    }
    let deep = format!(
        "{}{}",
        r#"{"a":"#.repeat(MAX_DEPTH + 1),
        "}".repeat(MAX_DEPTH + 1)
    );
    assert!(json_document(&deep).is_none());
    let err = documents(r#"{"a": 1, "a": 2}"#).expect_err("a repeated key");
    assert!(format!("{err:#}").contains("duplicate key"), "{err}");
}

#[test]
fn json_input_is_accepted() {
    let docs = documents(r#"{"kind": "Proxy", "spec": {"noProxy": "a,b"}}"#).expect("parses");
    assert_eq!(docs[0]["spec"]["noProxy"], "a,b");
}

#[test]
fn duplicate_keys_are_an_error() {
    let err = documents("a: 1\na: 2\n").expect_err("duplicate key");
    assert_eq!(
        format!("{err:#}"),
        "duplicate key \"a\" in one mapping (line 2, column 1)"
    );
}

#[test]
fn yaml_1_1_booleans_stay_strings_after_a_round_trip() {
    for word in [
        "on", "off", "yes", "no", "y", "n", "0755", "1e3", "true", "null", "~",
    ] {
        let value = json!({ "k": word });
        let text = to_string(&value).expect("serialises");
        let back = documents(&text).expect("re-parses");
        assert_eq!(back[0]["k"], word, "{word} became {text}");
    }
}

/// Strings that a YAML 1.1 reader (go-yaml v2, which Kubernetes tooling still uses) or a
/// YAML 1.2 one takes for something else when they are written plain.
const TRICKY: &[&str] = &[
    "on",
    "off",
    "yes",
    "no",
    "y",
    "n",
    "Y",
    "NO",
    "On",
    "true",
    "False",
    "null",
    "Null",
    "~",
    "",
    "0755",
    "0o17",
    "1e3",
    "1E3",
    "-1.5",
    "+1",
    "0x1F",
    ".inf",
    "-.Inf",
    ".nan",
    "1_000",
    "12:30:00",
    "2001-12-14",
    "=",
    "<<",
    "-",
    "?",
    ":",
    "- a",
    "a: b",
    "#x",
    "&a",
    "*a",
    "!tag",
    "%x",
    "@x",
    "`x",
    "'",
    "\"",
    "a\nb",
    "\ttab",
    " lead",
    "trail ",
    "\u{85}",
    "\u{feff}x",
];

/// A reader that takes plain scalars the YAML 1.1 way: `on`/`yes`/… booleans and
/// leading-zero octal numbers.
fn read_as_yaml_1_1(text: &str) -> serde_json::Value {
    let options = serde_saphyr::options! {
        strict_booleans: false,
        legacy_octal_numbers: true,
    };
    serde_saphyr::from_str_with_options(text, options).expect("parses")
}

#[test]
fn the_yaml_1_1_reader_of_these_tests_reads_yaml_1_1() {
    assert_eq!(read_as_yaml_1_1("k: on\n")["k"], json!(true));
    assert_eq!(read_as_yaml_1_1("k: 0755\n")["k"], json!(493));
}

fn json_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        proptest::sample::select(TRICKY).prop_map(|s| json!(s)),
        any::<String>().prop_map(|s| json!(s)),
        any::<i64>().prop_map(|n| json!(n)),
        any::<bool>().prop_map(|b| json!(b)),
        Just(serde_json::Value::Null),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        let key = prop_oneof![
            proptest::sample::select(TRICKY).prop_map(str::to_string),
            any::<String>()
        ];
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            proptest::collection::vec((key, inner), 0..6)
                .prop_map(|pairs| serde_json::Value::Object(pairs.into_iter().collect())),
        ]
    })
}

proptest::proptest! {
    /// What to_string writes reads back as the same value, by this module's YAML 1.2
    /// reader and by a YAML 1.1 one: every string stays a string.
    #[test]
    fn written_yaml_reads_back_the_same_under_yaml_1_1_and_1_2(value in json_value()) {
        let value = json!({ "k": value });
        let text = to_string(&value).expect("serialises");
        proptest::prop_assert_eq!(documents(&text).expect("re-parses"), vec![value.clone()]);
        proptest::prop_assert_eq!(read_as_yaml_1_1(&text), value);
    }
}

proptest::proptest! {
    /// The block writer of to_string writes what serde-saphyr writes, byte for byte, for
    /// any value: the structure, the strings it calls simple, and the delegated scalars.
    #[test]
    fn to_string_writes_what_serde_saphyr_writes(value in json_value()) {
        let value = json!({ "k": value, "list": [value.clone(), {"m": [value]}] });
        proptest::prop_assert_eq!(to_string(&value).expect("writes"), saphyr_to_string(&value).expect("writes"));
    }

    /// Multi-line strings, scripts among them, are written as serde-saphyr writes them.
    #[test]
    fn multi_line_strings_are_written_as_serde_saphyr_writes_them(
        text in "([ a-z#$\\\\:-]{0,6}\n){1,4}\n?[ a-z]{0,3}",
    ) {
        let value = json!({ "a": text.clone(), "b": [text.clone(), {"c": [text]}] });
        proptest::prop_assert_eq!(to_string(&value).expect("writes"), saphyr_to_string(&value).expect("writes"));
    }

    /// Every value the writer keeps plain, serde-saphyr keeps plain too; every one it
    /// quotes itself, serde-saphyr quotes the same way.
    #[test]
    fn simple_values_are_written_as_serde_saphyr_writes_them(
        text in "[a-zA-Z/0-9:-]?[ -~]{0,16}",
    ) {
        let value = json!({ "k": text.clone(), "l": [text.clone()] });
        proptest::prop_assert_eq!(to_string(&value).expect("writes"), saphyr_to_string(&value).expect("writes"));
    }

    /// Strings the writer puts in double quotes itself are written as serde-saphyr writes
    /// them, over printable ASCII with the indicators and separators that force quotes.
    #[test]
    fn double_quoted_values_are_written_as_serde_saphyr_writes_them(
        text in "[!&*|>%@`\\[{\"'# a-z:-]?([ -~]|: | #){0,16}[: a-z]?",
    ) {
        let value = json!({ "k": text.clone(), "l": [text.clone()] });
        proptest::prop_assert_eq!(to_string(&value).expect("writes"), saphyr_to_string(&value).expect("writes"));
    }

    /// Kubernetes quantities and the YAML 1.1 words, which the writer handles itself.
    #[test]
    fn quantities_and_yaml_1_1_words_are_written_as_serde_saphyr_writes_them(
        text in "([0-9]{1,5}(m|k|M|G|T|Ki|Mi|Gi|Ti|e3|E|x)?|-{0,2}(y|n|yes|no|on|off|true|false|null|nan|inf|NO|True|Off|NaN|Inf)|)",
    ) {
        let value = json!({ "k": text.clone(), "l": [text.clone()] });
        proptest::prop_assert_eq!(to_string(&value).expect("writes"), saphyr_to_string(&value).expect("writes"));
    }

    /// What the JSON shortcut reads, the YAML parser reads the same; JSON it declines
    /// (floats, escapes, repeated keys) is still read, by the YAML parser.
    #[test]
    fn json_objects_read_alike_by_serde_json_and_the_yaml_parser(
        pairs in proptest::collection::vec(("[a-z~\\\\\"]{0,3}", json_value()), 0..6),
        pretty in proptest::bool::ANY,
    ) {
        let object = serde_json::Value::Object(pairs.into_iter().collect());
        let text = if pretty {
            serde_json::to_string_pretty(&object)
        } else {
            serde_json::to_string(&object)
        }
        .expect("writes");
        let by_yaml = documents_by_yaml_parser(&text).ok();
        if let Some(fast) = json_document(&text) {
            proptest::prop_assert_eq!(Some(vec![fast]), by_yaml.clone());
        }
        proptest::prop_assert_eq!(documents(&text).ok(), by_yaml);
    }

    /// Every string the writer keeps plain, serde-saphyr keeps plain too.
    #[test]
    fn simple_strings_are_plain_for_serde_saphyr(text in "[a-zA-Z/][a-zA-Z0-9 ._/-]{0,12}") {
        let value = json!({ text.clone(): text.clone() });
        let written = saphyr_to_string(&value).expect("writes");
        if is_simple(&text) {
            proptest::prop_assert_eq!(written, format!("{text}: {text}\n"));
        }
    }
}

#[test]
fn nested_lists_block_scalars_and_odd_scalars_match_serde_saphyr() {
    let script = "#!/bin/bash\nset -o allexport\n\n  indented\nexec x \\\n  --flag=1\n";
    let value = json!({
        "a": [[1, [2, {"b": script}]], {"c": [script, "x: y", "", null, 1.5, -3, true]}],
        "d": {"e": {"f": script, "g": "trailing \n\n", "h": " lead"}},
        "quoted key": {"on": "off", "": "empty", "- x": "200m", "1e3": "12:30"},
        "script in list": [{"command": ["/bin/bash", "-c", script]}],
        "annotation": "{\"effect\": \"PreferredDuringScheduling\"}",
    });
    assert_eq!(
        to_string(&value).expect("writes"),
        saphyr_to_string(&value).expect("writes")
    );
}

#[test]
fn every_golden_file_is_written_as_serde_saphyr_writes_it() {
    let mut seen = 0;
    let mut dirs = vec![std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/golden"
    ))];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("reads") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml") {
                let text = std::fs::read_to_string(&path).expect("reads");
                for doc in documents(&text).expect("parses") {
                    let mut written = String::new();
                    assert!(
                        document(&doc, &mut written).is_ok(),
                        "{} is not written by the block writer",
                        path.display()
                    );
                    assert_eq!(
                        written,
                        saphyr_to_string(&doc).expect("writes"),
                        "{}",
                        path.display()
                    );
                    seen += 1;
                }
            }
        }
    }
    assert!(seen > 50, "only {seen} golden documents");
}

#[test]
fn scalars_and_empty_documents_are_left_to_serde_saphyr() {
    for value in [json!("on"), json!(3), json!({}), json!([]), json!(null)] {
        assert_eq!(
            to_string(&value).expect("writes"),
            saphyr_to_string(&value).expect("writes")
        );
    }
}

#[test]
fn long_lines_are_not_folded() {
    let long = "x".repeat(300);
    let text = to_string(&json!({ "k": long })).expect("serialises");
    assert_eq!(text.lines().count(), 1, "{text}");
}

#[test]
fn alias_bomb_is_refused() {
    use std::fmt::Write as _;
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
    for level in 1..12 {
        let prev = level - 1;
        let _ = writeln!(
            bomb,
            "l{level}: &l{level} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]",
            p = if prev == 0 {
                "a".to_string()
            } else {
                format!("l{prev}")
            }
        );
    }
    let err = documents(&bomb).expect_err("bomb");
    assert!(
        format!("{err:#}").starts_with("YAML aliases expand too far"),
        "{err}"
    );
}

#[test]
fn deep_nesting_is_refused() {
    let deep = format!("{}{}", "[".repeat(500), "]".repeat(500));
    assert!(documents(&deep).is_err());
    let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
    let err = documents(&deep).expect_err("too deep");
    assert!(
        format!("{err:#}").starts_with("nested more than 64 levels deep"),
        "{err}"
    );
    let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    assert!(documents(&ok).is_ok());
}

#[test]
fn document_count_is_bounded() {
    let many = "---\na: 1\n".repeat(MAX_DOCUMENTS + 1);
    let err = documents(&many).expect_err("too many");
    assert!(
        format!("{err:#}").starts_with("more than 1024 documents"),
        "{err}"
    );
    assert_eq!(
        documents(&"---\na: 1\n".repeat(MAX_DOCUMENTS))
            .expect("at the limit")
            .len(),
        MAX_DOCUMENTS
    );
}
