//! `cargo bench`: the in-process costs of a render, with no file I/O in what is timed.
//!
//! * `render/*`: the pure render of each platform's conformance case (`render_config`), and the
//!   same laid out as files in memory (`output::tree`, which serialises the YAML).
//! * `catalogue/*`: loading the embedded provider catalogue, as a render does at startup.
//! * `transform/*`: each cloud config transform on its conformance `cloud.conf`.
//! * `scaling/*`: parsing large but legal inputs at growing sizes: an Infrastructure padded with
//!   annotations (up to 10 MB), AWS and vSphere cloud configs with thousands of sections. The
//!   throughput column should stay flat: cost grows linearly with the input.
//!
//! Inputs are read (and generated) before timing starts. `cargo test --all-targets` runs every
//! benchmark once in an unoptimised build; there the scaling inputs are cut to 1/100th so the
//! test run stays quick (same code, smaller input). `scripts/bench` times the whole process.

use camino::{Utf8Path, Utf8PathBuf};
use ccm_catalogue::providers::Transform;
use ccm_render::catalogue::{Catalogue, Selection};
use ccm_render::commands::render_config;
use ccm_render::config::{ClusterConfig, DEFAULT_NAMESPACE, InputFiles};
use ccm_render::render::cloud_config::{self, Context};
use divan::counter::BytesCount;
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

/// The nine platforms with a CCM, by their `testdata/conformance` folder.
const PLATFORMS: [&str; 9] = [
    "aws",
    "azure",
    "azurestackhub",
    "gcp",
    "ibmcloud",
    "nutanix",
    "openstack",
    "powervs",
    "vsphere",
];

fn conformance(rel: &str) -> Utf8PathBuf {
    Utf8Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/conformance")
        .join(rel)
}

/// A platform's conformance inputs, read and checked (the I/O happens here, before timing).
fn load(platform: &str) -> ClusterConfig {
    let files = InputFiles {
        infrastructure: Some(conformance(&format!("{platform}/infrastructure.yaml"))),
        images: conformance("images.json"),
        cloud_config: Some(conformance(&format!(
            "{platform}/cloud-provider-config.yaml"
        ))),
        network: Some(conformance("network.yaml")),
        namespace: DEFAULT_NAMESPACE.to_owned(),
        release: None,
        ..InputFiles::default()
    };
    ClusterConfig::load(&files).expect("conformance inputs load")
}

/// The catalogue a render of `cfg` loads.
fn catalogue_for(cfg: &ClusterConfig) -> Catalogue {
    Catalogue::builtin_for(&cfg.infrastructure).expect("catalogue")
}

/// Whether divan is benchmarking (`cargo bench` passes `--bench`) rather than testing each
/// benchmark once (`cargo test`).
fn benchmarking() -> bool {
    std::env::args().any(|arg| arg == "--bench")
}

mod render {
    use super::{Bencher, PLATFORMS, black_box, catalogue_for, load, render_config};

    #[divan::bench(args = PLATFORMS)]
    fn pure(bencher: Bencher, platform: &str) {
        let cfg = load(platform);
        let catalogue = catalogue_for(&cfg);
        bencher.bench_local(|| render_config(black_box(&cfg), &catalogue).expect("renders"));
    }

    /// The render plus laying it out as files in memory: YAML serialisation, no writing.
    #[divan::bench(args = PLATFORMS)]
    fn to_files(bencher: Bencher, platform: &str) {
        let cfg = load(platform);
        let catalogue = catalogue_for(&cfg);
        bencher.bench_local(|| {
            let rendered = render_config(black_box(&cfg), &catalogue).expect("renders");
            ccm_render::output::tree(&rendered).expect("lays out")
        });
    }
}

mod catalogue {
    use super::{Catalogue, black_box};

    /// What `ccm-render render` loads: the provider of one platform.
    #[divan::bench(args = ["aws", "azure", "azurestackhub", "vsphere"])]
    fn builtin_for(platform: &str) -> Catalogue {
        let cfg = super::load(platform);
        Catalogue::builtin_for(black_box(&cfg.infrastructure)).expect("catalogue")
    }

    /// Every provider, as `ccm-render platforms` loads them.
    #[divan::bench]
    fn builtin() -> Catalogue {
        Catalogue::builtin().expect("catalogue")
    }
}

/// The conformance case each transform is measured on.
const TRANSFORMS: [(&str, Transform); 6] = [
    ("aws", Transform::Aws),
    ("azure", Transform::Azure),
    ("azurestackhub", Transform::AzureStack),
    ("openstack", Transform::OpenStack),
    ("vsphere", Transform::VSphere),
    ("gcp", Transform::None),
];

/// Runs one transform on `source` with a platform's Infrastructure, Network and feature gates.
fn transform_with(cfg: &ClusterConfig, kind: Transform, source: &str) -> cloud_config::Transformed {
    let gates = |gate: &str| cfg.features.is_enabled(gate);
    let ctx = Context {
        platform: cfg.infrastructure.platform,
        infrastructure: &cfg.infrastructure.raw,
        network: cfg.network.as_ref(),
        feature_enabled: &gates,
        behaviour: &cfg.release.behaviour.cloud_config,
    };
    cloud_config::transform(kind, source, &ctx).expect("transforms")
}

#[divan::bench(args = TRANSFORMS.map(|(platform, _)| platform))]
fn transform(bencher: Bencher, platform: &str) {
    let cfg = load(platform);
    let kind = TRANSFORMS
        .iter()
        .find(|(p, _)| *p == platform)
        .map(|(_, kind)| *kind)
        .expect("listed");
    // The transform the platform's provider names, so this table cannot drift from assets/.
    let catalogue = catalogue_for(&cfg);
    let Selection::Provider(provider) = catalogue.select(
        cfg.infrastructure.platform,
        &cfg.infrastructure.azure_cloud_name,
    ) else {
        panic!("{platform} has a provider");
    };
    assert_eq!(provider.spec().cloud_config.transform, kind, "{platform}");
    let source = cfg
        .cloud_config
        .as_ref()
        .expect("has a cloud config")
        .text
        .clone();
    bencher
        .counter(BytesCount::of_str(&source))
        .bench_local(|| transform_with(&cfg, kind, black_box(&source)));
}

mod scaling {
    use super::{
        Bencher, BytesCount, Transform, Utf8Path, benchmarking, black_box, conformance, load,
        transform_with,
    };
    use std::fmt::Write as _;

    /// Input sizes in kB; the throughput column should not fall as they grow.
    const KB: [usize; 5] = [625, 1250, 2500, 5000, 10_000];
    /// Section counts of the cloud configs.
    const SECTIONS: [usize; 4] = [500, 1000, 2000, 4000];

    fn scaled(n: usize) -> usize {
        if benchmarking() { n } else { n.div_ceil(100) }
    }

    /// The AWS conformance Infrastructure with annotations added until it is about `bytes` long:
    /// a legal object whose extra fields the tool does not read.
    fn padded_infrastructure(bytes: usize) -> String {
        let base = std::fs::read_to_string(conformance("aws/infrastructure.yaml"))
            .expect("conformance Infrastructure");
        let (head, tail) = base
            .split_once("  name: cluster\n")
            .expect("metadata.name is followed by the rest");
        let mut text = format!("{head}  name: cluster\n  annotations:\n");
        let mut i = 0;
        while text.len() + tail.len() < bytes {
            let _ = writeln!(
                text,
                "    bench.ccm-render.openshift.io/field-{i:07}: \"value {i} of a field the tool does not read\""
            );
            i += 1;
        }
        text.push_str(tail);
        text
    }

    /// What `inputs::infrastructure::load` does once the file is read.
    fn parse_infrastructure(text: &str) -> ccm_render::inputs::infrastructure::Infrastructure {
        use ccm_render::inputs;
        let path = Utf8Path::new("infrastructure.yaml");
        let docs = inputs::parse_documents(text, path).expect("parses");
        let doc = inputs::pick_object(docs, "Infrastructure", &["cluster"], path).expect("picks");
        inputs::check_api_version(&doc, "config.openshift.io", &["v1"], path).expect("v1");
        inputs::infrastructure::from_value(doc, path).expect("valid")
    }

    #[divan::bench(args = KB)]
    fn infrastructure(bencher: Bencher, kb: usize) {
        let text = padded_infrastructure(scaled(kb) * 1000);
        bencher
            .counter(BytesCount::of_str(&text))
            .bench_local(|| parse_infrastructure(black_box(&text)));
    }

    /// An AWS cloud.conf with `n` `[ServiceOverride]` sections.
    fn aws_cloud_conf(n: usize) -> String {
        let mut text = String::from("[Global]\nZone = us-east-1a\nVPC = vpc-0123456789abcdef0\n");
        for i in 1..=n {
            let _ = write!(
                text,
                "\n[ServiceOverride \"{i}\"]\nService = ec2\nRegion = us-east-1\nURL = https://ec2.us-east-1.amazonaws.com/{i}\nSigningRegion = us-east-1\n"
            );
        }
        text
    }

    /// A legacy INI vSphere cloud.conf with `n` `[VirtualCenter]` sections.
    fn vsphere_cloud_conf(n: usize) -> String {
        let mut text = String::from(
            "[Global]\nsecret-name = \"vsphere-creds\"\nsecret-namespace = \"kube-system\"\ninsecure-flag = \"1\"\n",
        );
        for i in 1..=n {
            let _ = write!(
                text,
                "\n[VirtualCenter \"vcenter-{i}.example.com\"]\ndatacenters = \"DC1,DC2\"\nport = 443\n"
            );
        }
        text
    }

    #[divan::bench(args = SECTIONS)]
    fn aws_sections(bencher: Bencher, sections: usize) {
        let cfg = load("aws");
        let text = aws_cloud_conf(scaled(sections));
        bencher
            .counter(BytesCount::of_str(&text))
            .bench_local(|| transform_with(&cfg, Transform::Aws, black_box(&text)));
    }

    #[divan::bench(args = SECTIONS)]
    fn vsphere_sections(bencher: Bencher, sections: usize) {
        let cfg = load("vsphere");
        let text = vsphere_cloud_conf(scaled(sections));
        bencher
            .counter(BytesCount::of_str(&text))
            .bench_local(|| transform_with(&cfg, Transform::VSphere, black_box(&text)));
    }
}
