# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ccm_render_global_optspecs
    string join \n h/help V/version
end

function __fish_ccm_render_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ccm_render_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ccm_render_using_subcommand
    set -l cmd (__fish_ccm_render_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ccm-render -n "__fish_ccm_render_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ccm-render -n "__fish_ccm_render_needs_command" -s V -l version -d 'Print version'
complete -c ccm-render -n "__fish_ccm_render_needs_command" -f -a "render" -d 'Render the objects for one cluster into a directory'
complete -c ccm-render -n "__fish_ccm_render_needs_command" -f -a "platforms" -d 'List the platforms ccm-render knows and what each needs'
complete -c ccm-render -n "__fish_ccm_render_needs_command" -f -a "placements" -d 'Print where each output folder (or, with --dest-dir, each rendered file) lands on the bootstrap node, for the bootkube stage'
complete -c ccm-render -n "__fish_ccm_render_needs_command" -f -a "provider" -d 'Write or check a provider folder (a CCM described as data, for --provider-dir)'
complete -c ccm-render -n "__fish_ccm_render_needs_command" -f -a "matrix" -d 'Render every provider across the standard variants, one folder per case, to review what a change to a provider or a template does everywhere'
complete -c ccm-render -n "__fish_ccm_render_needs_command" -f -a "compare-hosted" -d 'Compare a platform\'s hosted CCM (HyperShift\'s) with its standalone one (CCCMO\'s), field by field: the binary and flags, environment, image, resource requests and the cloud config\'s keys, from the samples matrix renders'
complete -c ccm-render -n "__fish_ccm_render_needs_command" -f -a "releases" -d 'List the OpenShift releases render --release accepts, the CCCMO commit each reproduces and what each changes'
complete -c ccm-render -n "__fish_ccm_render_needs_command" -f -a "completions" -d 'Print a shell completion script (the same files are committed under completions/)'
complete -c ccm-render -n "__fish_ccm_render_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l infrastructure -l cluster-infrastructure-file -d 'The Infrastructure manifest (config.openshift.io/v1), YAML or JSON' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l install-config -d 'install-config.yaml (or the kube-system/cluster-config-v1 ConfigMap carrying it): derive the Infrastructure, Proxy, Network and cloud config from it, as the installer would' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l infrastructure-name -d 'With --install-config: the infrastructure name (InfraID); without it, a stable name derived from the install-config' -r
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l ibm-instance-crn -d 'With --install-config on IBM Cloud or PowerVS: the CIS (publish External) or DNS Services (publish Internal) instance CRN' -r
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l azure-stack-endpoints -d 'With --install-config on Azure Stack Hub: the environment JSON the installer reads from the ARM endpoint (the config\'s key endpoints)' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l ibmcloud-zones -d 'With --install-config on IBM Cloud: the region\'s zones, comma-separated, for pools that name none' -r
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l powervs-vpc-subnets -d 'With --install-config on PowerVS with platform.powervs.vpcName: that VPC\'s subnets, comma-separated' -r
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l openstack-external-network-id -d 'With --install-config on OpenStack with platform.openstack.externalNetwork: that network\'s ID' -r
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l openstack-octavia -d 'With --install-config on OpenStack: whether the cloud has Octavia (default true, as the installer assumes when it cannot tell)' -r -f -a "true\t''
false\t''"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l openstack-ca-cert -d 'With --install-config on OpenStack when the clouds.yaml cloud has a cacert: the PEM bundle it names' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l emit-infrastructure -d 'With --install-config: also write the derived Infrastructure, cloud-provider-config, Proxy, Network and FeatureGate to FILE (one YAML stream)' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l cloud-config -l cloud-config-file -d 'The cloud provider config: a ConfigMap (cloud-provider-config, kube-cloud-config) or a raw cloud.conf' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l proxy -d 'The Proxy manifest (config.openshift.io/v1); its status becomes HTTP(S)_PROXY/NO_PROXY' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l network -d 'The Network manifest (config.openshift.io/v1); the vSphere cloud config reads its IP families. With --install-config, derived from it unless given' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l feature-gate -d 'The FeatureGate manifest; without it, the install-config\'s featureSet/featureGates, else the OpenShift Default feature set' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l apiserver -d 'The APIServer manifest (TLS security profile); without it, the Intermediate profile' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l ca-bundle -d 'Extra PEM CA bundle for the ccm-trusted-ca ConfigMap (e.g. the host\'s system bundle)' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l namespace -d 'Namespace of the post-install objects' -r
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l provider-dir -d 'A folder of provider folders that add to or override the built-in providers' -r -f -a "(__fish_complete_directories)"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l cccmo-dir -d 'A checkout of cluster-cloud-controller-manager-operator (the folder holding pkg/cloud/): the built-in providers\' manifests are its pkg/cloud/<platform>/assets/*.yaml, evaluated as CCCMO evaluates them, instead of ccm-render\'s own copy. Without --release, the release is the one whose Go files (pkg/cloud/**/*.go) the checkout holds' -r -f -a "(__fish_complete_directories)"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l release -d 'The OpenShift release to render for, as CCCMO of that release renders it: 4.18 to 4.23, or a full version (4.20.15, 4.21.0-0.nightly-2026-01-02-030405, 4.23.0-ec.2); 5.0 and 5.1 render the 4.23 catalogue. Default: the release the --images ImageStream names, else the newest. `ccm-render releases` lists them' -r
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l ignition -d 'Also (or, without --dest-dir, only) write an Ignition config (mode 0600) whose storage.files put every file where it lands on the bootstrap node (see `placements`)' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l ignition-version -d 'With --ignition: the Ignition spec version to write [default: the one the installer of the release writes, 3.2.0 for 4.18 to 4.23]' -r -f -a "3.1.0\t''
3.2.0\t''
3.3.0\t''
3.4.0\t''"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l images -l images-file -d 'images.json, the cloud-controller-manager-images ConfigMap that carries it, or the release\'s image-references ImageStream' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l credentials -d 'The installer\'s root credentials Secret for the platform (kube-system), or the CCM\'s own Secret in manual mode; the files the bootstrap pod needs go under DIR/secrets/ (mode 0600). With --hosted-control-plane: the Secrets HyperShift reads from the management cluster (with --hosted-cluster they come from its stream)' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l dest-dir -d 'Output root (created if missing): bootstrap/, config/, manifests/. Updated as one transaction that a crash leaves old or new; runs on one DIR take turns, each waiting at most CCM_RENDER_LOCK_TIMEOUT seconds (default 30). Needed unless --ignition is given' -r -f -a "(__fish_complete_directories)"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l color -d 'Colour the --diff output: auto (when stdout is a terminal and NO_COLOR is not set), always or never' -r -f -a "auto\t'When stdout is a terminal and NO_COLOR is unset or empty'
always\t'Always'
never\t'Never'"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l output -d 'What to print on stdout: nothing (text; a summary goes to stderr) or a JSON summary of every file (json; see README)' -r -f -a "text\t'For people'
json\t'For programs'"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l hosted-control-plane -d 'A HyperShift HostedControlPlane (hypershift.openshift.io/v1beta1): render the CCM objects HyperShift\'s control-plane-operator creates for it, under manifests/ (--images: the release\'s image-references ImageStream; see docs/hosted.md)' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l hosted-cluster -d 'A HyperShift HostedCluster, or the stream `hcp create cluster --render` prints (Namespace, Secrets, HostedCluster, NodePools): derive its HostedControlPlane as the hypershift-operator does and render that as --hosted-control-plane does (see docs/hosted.md)' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l name -d 'With --hosted-cluster: the HostedCluster to render when the stream holds several' -r
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l emit-hosted-control-plane -d 'With --hosted-cluster: also write the derived HostedControlPlane to FILE' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l operator-env -d 'With --hosted-control-plane: a variable of the control-plane-operator\'s environment its CCM components read (MANAGED_SERVICE, ARO_HCP_KEY_VAULT_USER_CLIENT_ID, HTTP_PROXY, HTTPS_PROXY, NO_PROXY); with --hosted-cluster, of the hypershift-operator\'s environment, which passes them on; repeat for each' -r
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l ignition-manifests -d 'With --ignition: also the post-install manifests, to /opt/openshift/manifests'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l check -d 'Render in memory and compare with DIR (and the --ignition FILE); write nothing. Lists the files that would be added, changed or removed; exit status 1 when there are any, 0 when there are none'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l diff -d 'Like --check, and print a unified diff of every change (credentials redacted)'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -l prune -d 'Also remove (with --check/--diff: report) files under bootstrap/, config/, manifests/ and secrets/ that this render does not produce. Without it, no file is ever removed'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand render" -s V -l version -d 'Print version'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand platforms" -l output -d 'Print a table (text) or JSON (json; see README)' -r -f -a "text\t'For people'
json\t'For programs'"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand platforms" -l provider-dir -d 'A folder of provider folders to list too (as render --provider-dir reads it)' -r -f -a "(__fish_complete_directories)"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand platforms" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand platforms" -s V -l version -d 'Print version'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand placements" -l dest-dir -d 'A rendered directory: print one line per file in it instead of one per folder' -r -f -a "(__fish_complete_directories)"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand placements" -l output -d 'Print lines `SOURCE TARGET MODE DIR-MODE` (text) or JSON (json; see README)' -r -f -a "text\t'For people'
json\t'For programs'"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand placements" -l manifests -d 'Also the post-install manifests (to /opt/openshift/manifests), as render --ignition-manifests'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand placements" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand placements" -s V -l version -d 'Print version'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and not __fish_seen_subcommand_from new check import help" -s h -l help -d 'Print help'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and not __fish_seen_subcommand_from new check import help" -s V -l version -d 'Print version'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and not __fish_seen_subcommand_from new check import help" -f -a "new" -d 'Write a new provider folder DIR/NAME for platform External that checks and renders as is'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and not __fish_seen_subcommand_from new check import help" -f -a "check" -d 'Check a provider folder, or a folder of provider folders, with the checks render applies'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and not __fish_seen_subcommand_from new check import help" -f -a "import" -d 'Bring the catalogue under assets/ to a CCCMO checkout\'s templates for a release, or add a release newer than its newest; list by file what cannot be imported (a change of CCCMO\'s Go code), with exit status 1 then'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and not __fish_seen_subcommand_from new check import help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and __fish_seen_subcommand_from new" -l dir -d 'Where to create the folder NAME' -r -f -a "(__fish_complete_directories)"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and __fish_seen_subcommand_from new" -s h -l help -d 'Print help'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and __fish_seen_subcommand_from new" -s V -l version -d 'Print version'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and __fish_seen_subcommand_from check" -s V -l version -d 'Print version'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and __fish_seen_subcommand_from import" -l cccmo-dir -d 'A checkout of cluster-cloud-controller-manager-operator (the folder holding pkg/cloud/)' -r -f -a "(__fish_complete_directories)"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and __fish_seen_subcommand_from import" -l release -d 'The release the checkout is (X.Y): one of the catalogue\'s, or one newer than its newest, which becomes the newest' -r
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and __fish_seen_subcommand_from import" -l assets -d 'ccm-render\'s assets folder' -r -f -a "(__fish_complete_directories)"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and __fish_seen_subcommand_from import" -l branch -d 'The CCCMO branch the checkout is (default: git\'s, else release-X.Y)' -r
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and __fish_seen_subcommand_from import" -l commit -d 'The CCCMO commit the checkout is (default: git\'s; needed for a new release from a folder that is no git working copy)' -r
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and __fish_seen_subcommand_from import" -l date -d 'The date of that commit, YYYY-MM-DD (default: git\'s)' -r
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and __fish_seen_subcommand_from import" -s V -l version -d 'Print version'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and __fish_seen_subcommand_from help" -f -a "new" -d 'Write a new provider folder DIR/NAME for platform External that checks and renders as is'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and __fish_seen_subcommand_from help" -f -a "check" -d 'Check a provider folder, or a folder of provider folders, with the checks render applies'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and __fish_seen_subcommand_from help" -f -a "import" -d 'Bring the catalogue under assets/ to a CCCMO checkout\'s templates for a release, or add a release newer than its newest; list by file what cannot be imported (a change of CCCMO\'s Go code), with exit status 1 then'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand provider; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand matrix" -l provider-dir -d 'A folder of provider folders that add to or override the built-in providers' -r -f -a "(__fish_complete_directories)"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand matrix" -l cccmo-dir -d 'A checkout of cluster-cloud-controller-manager-operator (the folder holding pkg/cloud/): the built-in providers\' manifests are its pkg/cloud/<platform>/assets/*.yaml, evaluated as CCCMO evaluates them, instead of ccm-render\'s own copy. Without --release, the release is the one whose Go files (pkg/cloud/**/*.go) the checkout holds' -r -f -a "(__fish_complete_directories)"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand matrix" -l inputs -d 'Sample inputs of your own: DIR/PROVIDER/ holds any of infrastructure.yaml, infrastructure-sno.yaml, cloud-provider-config.yaml, images.json, network.yaml, proxy.yaml, apiserver-modern.yaml and featuregate-techpreview.yaml; the others are the samples built into ccm-render' -r -f -a "(__fish_complete_directories)"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand matrix" -l release -d 'The OpenShift release to render every case for, as `render --release` reads it (4.18 to 4.23, a full version, 5.0 and 5.1 as 4.23); repeat it for several, or give `all` for every release. Default: the newest, in folders PROVIDER/VARIANT/; with --release the folders are RELEASE/PROVIDER/VARIANT/ (RELEASE being X.Y), so that `diff -r DIR/4.21 DIR/4.22` shows what an upgrade changes. A --provider-dir provider is rendered only for the releases its spec.releases names' -r
complete -c ccm-render -n "__fish_ccm_render_using_subcommand matrix" -l dest-dir -d 'Output root (created if missing): one folder PROVIDER/VARIANT/ per case (RELEASE/PROVIDER/VARIANT/ with --release)' -r -f -a "(__fish_complete_directories)"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand matrix" -l color -d 'Colour the --diff output: auto (when stdout is a terminal and NO_COLOR is not set), always or never' -r -f -a "auto\t'When stdout is a terminal and NO_COLOR is unset or empty'
always\t'Always'
never\t'Never'"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand matrix" -s j -l jobs -d 'How many cases to render, compare or write at once, as cargo\'s -j (default: the number of processors this process may run on)' -r
complete -c ccm-render -n "__fish_ccm_render_using_subcommand matrix" -l check -d 'Render in memory and compare with DIR; write nothing. Lists the files that would be added, changed or removed and the cases they belong to; exit status 1 when there are any, 0 when there are none'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand matrix" -l diff -d 'Like --check, and print a unified diff of every change'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand matrix" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand matrix" -s V -l version -d 'Print version'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand compare-hosted" -l hosted-cluster -d 'A HostedCluster, or the stream `hcp create cluster --render` prints: its hosted CCM (rendered as `render --hosted-cluster` renders it) instead of the default sample\'s' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand compare-hosted" -l images -d 'With --hosted-cluster: the release\'s image-references ImageStream' -r -F
complete -c ccm-render -n "__fish_ccm_render_using_subcommand compare-hosted" -l name -d 'With --hosted-cluster: the HostedCluster to compare when the stream holds several' -r
complete -c ccm-render -n "__fish_ccm_render_using_subcommand compare-hosted" -l operator-env -d 'With --hosted-cluster: a variable of the hypershift-operator\'s environment, as `render` takes it; repeat for each' -r
complete -c ccm-render -n "__fish_ccm_render_using_subcommand compare-hosted" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand compare-hosted" -s V -l version -d 'Print version'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand releases" -l output -d 'Print a table (text) or JSON (json; see README)' -r -f -a "text\t'For people'
json\t'For programs'"
complete -c ccm-render -n "__fish_ccm_render_using_subcommand releases" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand releases" -s V -l version -d 'Print version'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand completions" -s h -l help -d 'Print help'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand completions" -s V -l version -d 'Print version'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand help; and not __fish_seen_subcommand_from render platforms placements provider matrix compare-hosted releases completions help" -f -a "render" -d 'Render the objects for one cluster into a directory'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand help; and not __fish_seen_subcommand_from render platforms placements provider matrix compare-hosted releases completions help" -f -a "platforms" -d 'List the platforms ccm-render knows and what each needs'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand help; and not __fish_seen_subcommand_from render platforms placements provider matrix compare-hosted releases completions help" -f -a "placements" -d 'Print where each output folder (or, with --dest-dir, each rendered file) lands on the bootstrap node, for the bootkube stage'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand help; and not __fish_seen_subcommand_from render platforms placements provider matrix compare-hosted releases completions help" -f -a "provider" -d 'Write or check a provider folder (a CCM described as data, for --provider-dir)'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand help; and not __fish_seen_subcommand_from render platforms placements provider matrix compare-hosted releases completions help" -f -a "matrix" -d 'Render every provider across the standard variants, one folder per case, to review what a change to a provider or a template does everywhere'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand help; and not __fish_seen_subcommand_from render platforms placements provider matrix compare-hosted releases completions help" -f -a "compare-hosted" -d 'Compare a platform\'s hosted CCM (HyperShift\'s) with its standalone one (CCCMO\'s), field by field: the binary and flags, environment, image, resource requests and the cloud config\'s keys, from the samples matrix renders'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand help; and not __fish_seen_subcommand_from render platforms placements provider matrix compare-hosted releases completions help" -f -a "releases" -d 'List the OpenShift releases render --release accepts, the CCCMO commit each reproduces and what each changes'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand help; and not __fish_seen_subcommand_from render platforms placements provider matrix compare-hosted releases completions help" -f -a "completions" -d 'Print a shell completion script (the same files are committed under completions/)'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand help; and not __fish_seen_subcommand_from render platforms placements provider matrix compare-hosted releases completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand help; and __fish_seen_subcommand_from provider" -f -a "new" -d 'Write a new provider folder DIR/NAME for platform External that checks and renders as is'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand help; and __fish_seen_subcommand_from provider" -f -a "check" -d 'Check a provider folder, or a folder of provider folders, with the checks render applies'
complete -c ccm-render -n "__fish_ccm_render_using_subcommand help; and __fish_seen_subcommand_from provider" -f -a "import" -d 'Bring the catalogue under assets/ to a CCCMO checkout\'s templates for a release, or add a release newer than its newest; list by file what cannot be imported (a change of CCCMO\'s Go code), with exit status 1 then'
