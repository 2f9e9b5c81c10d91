//! The vsphere cloud config transform (`Transform::VSphere`), on the vsphere conformance case.
#![no_main]

mod common;

static BASE: common::Conformance = common::Conformance {
    infrastructure: std::sync::LazyLock::new(|| {
        common::document(include_str!(
            "../../testdata/conformance/vsphere/infrastructure.yaml"
        ))
    }),
    network: std::sync::LazyLock::new(|| {
        common::document(include_str!("../../testdata/conformance/network.yaml"))
    }),
};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::transform(ccm_catalogue::providers::Transform::VSphere, &BASE, data);
});
