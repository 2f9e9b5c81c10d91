//! Every input's first step (and `--network`, which is read whole): a YAML/JSON stream into
//! documents. Whatever parses must also survive the way out: written by `yaml::to_string` and
//! read back, each document is the same value (strings such as `on`, `0755` or `~` stay strings).
//! And what the JSON shortcut reads, serde-saphyr reads the same.
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    if let Some(fast) = ccm_catalogue::yaml::json_document(text) {
        let by_yaml = ccm_catalogue::yaml::documents_by_yaml_parser(text);
        assert_eq!(by_yaml.ok(), Some(vec![fast]), "{text:?}");
    }
    let Some(docs) = common::check(ccm_catalogue::yaml::documents(text)) else {
        return;
    };
    for doc in &docs {
        let written = ccm_catalogue::yaml::to_string(doc).expect("a parsed value serialises");
        let back = ccm_catalogue::yaml::documents(&written).expect("written YAML parses");
        assert_eq!(back.as_slice(), std::slice::from_ref(doc), "{written}");
    }
    let _ = common::check(ccm_render::inputs::object_from_text(
        text,
        common::path(),
        "Network",
        "config.openshift.io",
        &["v1"],
        &["cluster"],
    ));
});
