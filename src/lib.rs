//! ccm-render: render OpenShift's cloud controller manager objects offline.
pub mod cloud_config;
pub mod yaml;
