//! ccm-render: render OpenShift's cloud controller manager objects offline.
pub mod tls;
pub mod yaml;
