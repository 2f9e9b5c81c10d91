//! The openstack cloud config transform (`Transform::OpenStack`), on the openstack conformance case.
#![no_main]

mod common;

const BASE: common::Conformance = common::Conformance {
    infrastructure: include_str!("../../testdata/conformance/openstack/infrastructure.yaml"),
    network: include_str!("../../testdata/conformance/network.yaml"),
};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::transform(ccm_render::cloud_config::Transform::OpenStack, &BASE, data);
});
