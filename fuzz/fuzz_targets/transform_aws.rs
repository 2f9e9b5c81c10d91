//! The aws cloud config transform (`Transform::Aws`), on the aws conformance case.
#![no_main]

mod common;

static BASE: common::Conformance = common::Conformance {
    infrastructure: std::sync::LazyLock::new(|| {
        common::document(include_str!(
            "../../testdata/conformance/aws/infrastructure.yaml"
        ))
    }),
    network: std::sync::LazyLock::new(|| {
        common::document(include_str!("../../testdata/conformance/network.yaml"))
    }),
};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::transform(ccm_catalogue::providers::Transform::Aws, &BASE, data);
});
