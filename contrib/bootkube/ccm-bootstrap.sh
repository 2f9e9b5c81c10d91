#!/usr/bin/env bash
# ccm-render's bootkube stage: renders the cloud controller manager's bootstrap pods with the
# ccm-render image and puts them, their cloud config and credentials where the bootstrap node
# reads them. Written in bootkube.sh's own conventions (installer
# data/data/bootstrap/files/usr/local/bin/bootkube.sh.template): it runs in the asset dir
# (/opt/openshift), mounts it at /assets through bootkube_podman_run, renders into a dest it
# removes first, and marks success with ccm-bootstrap.done so that a restarted bootkube skips it.
#
# Use it either way:
#   * sourced by bootkube.sh (`. /usr/local/bin/ccm-bootstrap.sh`) after its own functions and
#     RELEASE_IMAGE_DIGEST are defined; or
#   * run on its own in the asset dir: `cd /opt/openshift && ccm-bootstrap.sh`.
#
# Settings (environment):
#   CCM_RENDER_IMAGE         the ccm-render image (default: `image_for ccm-render`, from
#                            release-image.sh, when the release payload carries it)
#   CCM_RENDER_IMAGES        an images file (image-references ImageStream, images.json or the
#                            cloud-controller-manager-images ConfigMap); default: the release
#                            payload's /release-manifests/image-references, read from
#                            RELEASE_IMAGE_DIGEST
#   CCM_BOOTSTRAP_ROOT       prefix of every host path written ("" on the bootstrap node; a
#                            temporary folder in tests)
#   CCM_BOOTSTRAP_MANIFESTS  "true": also place the post-install manifests into
#                            /opt/openshift/manifests, so that cluster-bootstrap creates them
#                            before the operator runs (default: leave them to the operator)
#   CCM_RENDER_CONTAINER     the render container's name (default ccm-render, as bootkube names
#                            each render's; tests running side by side give each its own)
set -euo pipefail

# ---- Where each output lands ---------------------------------------------------------------
# The destination map is ccm-render's own (src/placement; docs/bootstrap-and-image.md, "Where the
# output lands on the bootstrap node"), the one `render --ignition` writes into an Ignition
# config too, so the two ways of delivering a render cannot disagree.
# `ccm-render placements --dest-dir DIR` prints one
# line per rendered file, in the placing order (static pods last: the kubelet starts a pod as
# soon as its file appears, and the pod reads the others):
#   <file, relative to DIR> <path on the node> <file mode> <mode of the file's folder>
# This stage keeps no copy of the map: it installs what that prints.
ccm_bootstrap_placements() {
    local args=(placements --dest-dir=/assets/ccm-bootstrap)
    if [ "${CCM_BOOTSTRAP_MANIFESTS:-false}" = true ]; then
        args+=(--manifests)
    fi
    bootkube_podman_run \
        --rm \
        --name "${CCM_RENDER_CONTAINER:-ccm-render}-placements" \
        --user 0 \
        --volume "$PWD:/assets:z" \
        "${CCM_RENDER_IMAGE}" \
        "${args[@]}"
}
# ---------------------------------------------------------------------------------------------

# bootkube.sh's wrapper: host networking, so that no container IP clashes with the user's
# infrastructure. Defined here only when bootkube has not defined it.
if ! declare -F bootkube_podman_run >/dev/null; then
    bootkube_podman_run() {
        podman run --quiet --net=host "${@}"
    }
fi

# The release payload's image-references, as release-image.sh's image_for reads it, copied out
# without running the release image (podman create does not start it).
ccm_bootstrap_release_image_references() {
    local container
    container=$(podman create --quiet --net=none "${RELEASE_IMAGE_DIGEST:?neither CCM_RENDER_IMAGES nor RELEASE_IMAGE_DIGEST is set}" ccm-bootstrap)
    if ! podman cp "${container}:/release-manifests/image-references" "${1}"; then
        podman rm --force "${container}" >/dev/null
        echo "ccm-bootstrap: ${RELEASE_IMAGE_DIGEST} has no /release-manifests/image-references" >&2
        false
    fi
    podman rm --force "${container}" >/dev/null
}

if [ ! -f ccm-bootstrap.done ]; then
    if declare -F record_service_stage_start >/dev/null; then
        record_service_stage_start "ccm-bootstrap"
    fi
    echo "Rendering cloud controller manager bootstrap manifests..."

    if [ -z "${CCM_RENDER_IMAGE:-}" ]; then
        if ! declare -F image_for >/dev/null; then
            echo "ccm-bootstrap: set CCM_RENDER_IMAGE (no image_for: release-image.sh is not loaded)" >&2
            false
        fi
        CCM_RENDER_IMAGE="$(image_for ccm-render)"
    fi
    rm --recursive --force ccm-bootstrap ccm-bootstrap-inputs
    mkdir --parents ccm-bootstrap-inputs
    if [ -n "${CCM_RENDER_IMAGES:-}" ]; then
        cp "${CCM_RENDER_IMAGES}" ccm-bootstrap-inputs/images
    else
        ccm_bootstrap_release_image_references ccm-bootstrap-inputs/images
    fi

    # The installer's manifests (installer pkg/asset/manifests): the Infrastructure always; the
    # cloud provider config, Proxy and Network when written; the root credentials Secret unless
    # the install uses manual credentials mode.
    CCM_RENDER_ARGS=(
        --infrastructure=/assets/manifests/cluster-infrastructure-02-config.yml
        --images=/assets/ccm-bootstrap-inputs/images
        --dest-dir=/assets/ccm-bootstrap
    )
    if [ -f manifests/cloud-provider-config.yaml ]; then
        CCM_RENDER_ARGS+=(--cloud-config=/assets/manifests/cloud-provider-config.yaml)
    fi
    if [ -f manifests/cluster-proxy-01-config.yaml ]; then
        CCM_RENDER_ARGS+=(--proxy=/assets/manifests/cluster-proxy-01-config.yaml)
    fi
    if [ -f manifests/cluster-network-02-config.yml ]; then
        CCM_RENDER_ARGS+=(--network=/assets/manifests/cluster-network-02-config.yml)
    fi
    if [ -f openshift/99_cloud-creds-secret.yaml ]; then
        CCM_RENDER_ARGS+=(--credentials=/assets/openshift/99_cloud-creds-secret.yaml)
    fi

    # --user 0: the image's default user may not write to the root-owned asset dir.
    bootkube_podman_run \
        --rm \
        --name "${CCM_RENDER_CONTAINER:-ccm-render}" \
        --user 0 \
        --volume "$PWD:/assets:z" \
        "${CCM_RENDER_IMAGE}" \
        render "${CCM_RENDER_ARGS[@]}"

    # Read whole first, so that a failure of the image fails the stage (set -e).
    placements="$(ccm_bootstrap_placements)"
    while read -r source target mode dir_mode; do
        if [ -z "${source}" ]; then
            continue # nothing rendered (a platform without a CCM)
        fi
        install -d --mode="${dir_mode}" "${CCM_BOOTSTRAP_ROOT:-}${target%/*}"
        install --mode="${mode}" "ccm-bootstrap/${source}" "${CCM_BOOTSTRAP_ROOT:-}${target}"
    done <<<"${placements}"

    touch ccm-bootstrap.done
    if declare -F record_service_stage_success >/dev/null; then
        record_service_stage_success
    fi
fi
