//! ccm-render: render OpenShift's cloud controller manager objects offline.
pub mod features;
pub mod tls;
pub mod yaml;
