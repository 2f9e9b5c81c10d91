//! `--images`: images.json or its ConfigMap; every image accepted is a valid reference.
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some(text) = common::text(data) else {
        return;
    };
    if let Some(images) = common::check(ccm_render::inputs::images::parse(text, common::path())) {
        for key in [
            "cloudControllerManagerAWS",
            "cloudControllerManagerOperator",
        ] {
            if let Some(image) = common::check(images.get(key, "the fuzz target")) {
                assert!(
                    ccm_catalogue::validate::image_reference(image).is_ok(),
                    "{image:?}"
                );
                common::assert_script_safe("image", image);
            }
        }
    }
});
