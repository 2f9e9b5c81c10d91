# Sourced by scripts/bench (from the repository's root): the renders it measures, one per
# platform from its conformance inputs, and the oldest release.

# The nine platforms of testdata/conformance.
platforms=(aws azure azurestackhub gcp ibmcloud nutanix openstack powervs vsphere)
conf=testdata/conformance

# render_args PLATFORM [INFRASTRUCTURE] [CLOUD-CONFIG]: the render's arguments but --dest-dir,
# as one line to be split at spaces (the paths are the repository's own).
render_args() {
  echo "render --infrastructure ${2:-$conf/$1/infrastructure.yaml} --images $conf/images.json" \
    "--cloud-config ${3:-$conf/$1/cloud-provider-config.yaml} --network $conf/network.yaml"
}

# oldest_release BIN: the oldest release BIN renders for (`releases --output json` lists them
# oldest first).
oldest_release() {
  "$1" releases --output json | python3 -c 'import json, sys; print(json.load(sys.stdin)["releases"][0]["name"])'
}
