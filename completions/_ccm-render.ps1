
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'ccm-render' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'ccm-render'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'ccm-render' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Render the objects for one cluster into a directory')
            [CompletionResult]::new('platforms', 'platforms', [CompletionResultType]::ParameterValue, 'List the platforms ccm-render knows and what each needs')
            [CompletionResult]::new('placements', 'placements', [CompletionResultType]::ParameterValue, 'Print where each output folder (or, with --dest-dir, each rendered file) lands on the bootstrap node, for the bootkube stage')
            [CompletionResult]::new('provider', 'provider', [CompletionResultType]::ParameterValue, 'Write or check a provider folder (a CCM described as data, for --provider-dir)')
            [CompletionResult]::new('matrix', 'matrix', [CompletionResultType]::ParameterValue, 'Render every provider across the standard variants, one folder per case, to review what a change to a provider or a template does everywhere')
            [CompletionResult]::new('compare-hosted', 'compare-hosted', [CompletionResultType]::ParameterValue, 'Compare a platform''s hosted CCM (HyperShift''s) with its standalone one (CCCMO''s), field by field: the binary and flags, environment, image, resource requests and the cloud config''s keys, from the samples matrix renders')
            [CompletionResult]::new('releases', 'releases', [CompletionResultType]::ParameterValue, 'List the OpenShift releases render --release accepts, the CCCMO commit each reproduces and what each changes')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script (the same files are committed under completions/)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ccm-render;render' {
            [CompletionResult]::new('--infrastructure', '--infrastructure', [CompletionResultType]::ParameterName, 'The Infrastructure manifest (config.openshift.io/v1), YAML or JSON')
            [CompletionResult]::new('--cluster-infrastructure-file', '--cluster-infrastructure-file', [CompletionResultType]::ParameterName, 'The Infrastructure manifest (config.openshift.io/v1), YAML or JSON')
            [CompletionResult]::new('--install-config', '--install-config', [CompletionResultType]::ParameterName, 'install-config.yaml (or the kube-system/cluster-config-v1 ConfigMap carrying it): derive the Infrastructure, Proxy, Network and cloud config from it, as the installer would')
            [CompletionResult]::new('--infrastructure-name', '--infrastructure-name', [CompletionResultType]::ParameterName, 'With --install-config: the infrastructure name (InfraID); without it, a stable name derived from the install-config')
            [CompletionResult]::new('--ibm-instance-crn', '--ibm-instance-crn', [CompletionResultType]::ParameterName, 'With --install-config on IBM Cloud or PowerVS: the CIS (publish External) or DNS Services (publish Internal) instance CRN')
            [CompletionResult]::new('--azure-stack-endpoints', '--azure-stack-endpoints', [CompletionResultType]::ParameterName, 'With --install-config on Azure Stack Hub: the environment JSON the installer reads from the ARM endpoint (the config''s key endpoints)')
            [CompletionResult]::new('--ibmcloud-zones', '--ibmcloud-zones', [CompletionResultType]::ParameterName, 'With --install-config on IBM Cloud: the region''s zones, comma-separated, for pools that name none')
            [CompletionResult]::new('--powervs-vpc-subnets', '--powervs-vpc-subnets', [CompletionResultType]::ParameterName, 'With --install-config on PowerVS with platform.powervs.vpcName: that VPC''s subnets, comma-separated')
            [CompletionResult]::new('--openstack-external-network-id', '--openstack-external-network-id', [CompletionResultType]::ParameterName, 'With --install-config on OpenStack with platform.openstack.externalNetwork: that network''s ID')
            [CompletionResult]::new('--openstack-octavia', '--openstack-octavia', [CompletionResultType]::ParameterName, 'With --install-config on OpenStack: whether the cloud has Octavia (default true, as the installer assumes when it cannot tell)')
            [CompletionResult]::new('--openstack-ca-cert', '--openstack-ca-cert', [CompletionResultType]::ParameterName, 'With --install-config on OpenStack when the clouds.yaml cloud has a cacert: the PEM bundle it names')
            [CompletionResult]::new('--emit-infrastructure', '--emit-infrastructure', [CompletionResultType]::ParameterName, 'With --install-config: also write the derived Infrastructure, cloud-provider-config, Proxy, Network and FeatureGate to FILE (one YAML stream)')
            [CompletionResult]::new('--cloud-config', '--cloud-config', [CompletionResultType]::ParameterName, 'The cloud provider config: a ConfigMap (cloud-provider-config, kube-cloud-config) or a raw cloud.conf')
            [CompletionResult]::new('--cloud-config-file', '--cloud-config-file', [CompletionResultType]::ParameterName, 'The cloud provider config: a ConfigMap (cloud-provider-config, kube-cloud-config) or a raw cloud.conf')
            [CompletionResult]::new('--proxy', '--proxy', [CompletionResultType]::ParameterName, 'The Proxy manifest (config.openshift.io/v1); its status becomes HTTP(S)_PROXY/NO_PROXY')
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'The Network manifest (config.openshift.io/v1); the vSphere cloud config reads its IP families. With --install-config, derived from it unless given')
            [CompletionResult]::new('--feature-gate', '--feature-gate', [CompletionResultType]::ParameterName, 'The FeatureGate manifest; without it, the install-config''s featureSet/featureGates, else the OpenShift Default feature set')
            [CompletionResult]::new('--apiserver', '--apiserver', [CompletionResultType]::ParameterName, 'The APIServer manifest (TLS security profile); without it, the Intermediate profile')
            [CompletionResult]::new('--ca-bundle', '--ca-bundle', [CompletionResultType]::ParameterName, 'Extra PEM CA bundle for the ccm-trusted-ca ConfigMap (e.g. the host''s system bundle)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the post-install objects')
            [CompletionResult]::new('--provider-dir', '--provider-dir', [CompletionResultType]::ParameterName, 'A folder of provider folders that add to or override the built-in providers')
            [CompletionResult]::new('--cccmo-dir', '--cccmo-dir', [CompletionResultType]::ParameterName, 'A checkout of cluster-cloud-controller-manager-operator (the folder holding pkg/cloud/): the built-in providers'' manifests are its pkg/cloud/<platform>/assets/*.yaml, evaluated as CCCMO evaluates them, instead of ccm-render''s own copy. Without --release, the release is the one whose Go files (pkg/cloud/**/*.go) the checkout holds')
            [CompletionResult]::new('--release', '--release', [CompletionResultType]::ParameterName, 'The OpenShift release to render for, as CCCMO of that release renders it: 4.18 to 4.23, or a full version (4.20.15, 4.21.0-0.nightly-2026-01-02-030405, 4.23.0-ec.2); 5.0 and 5.1 render the 4.23 catalogue. Default: the release the --images ImageStream names, else the newest. `ccm-render releases` lists them')
            [CompletionResult]::new('--ignition', '--ignition', [CompletionResultType]::ParameterName, 'Also (or, without --dest-dir, only) write an Ignition config (mode 0600) whose storage.files put every file where it lands on the bootstrap node (see `placements`)')
            [CompletionResult]::new('--ignition-version', '--ignition-version', [CompletionResultType]::ParameterName, 'With --ignition: the Ignition spec version to write [default: the one the installer of the release writes, 3.2.0 for 4.18 to 4.23]')
            [CompletionResult]::new('--images', '--images', [CompletionResultType]::ParameterName, 'images.json, the cloud-controller-manager-images ConfigMap that carries it, or the release''s image-references ImageStream')
            [CompletionResult]::new('--images-file', '--images-file', [CompletionResultType]::ParameterName, 'images.json, the cloud-controller-manager-images ConfigMap that carries it, or the release''s image-references ImageStream')
            [CompletionResult]::new('--credentials', '--credentials', [CompletionResultType]::ParameterName, 'The installer''s root credentials Secret for the platform (kube-system), or the CCM''s own Secret in manual mode; the files the bootstrap pod needs go under DIR/secrets/ (mode 0600). With --hosted-control-plane: the Secrets HyperShift reads from the management cluster (with --hosted-cluster they come from its stream)')
            [CompletionResult]::new('--dest-dir', '--dest-dir', [CompletionResultType]::ParameterName, 'Output root (created if missing): bootstrap/, config/, manifests/. Updated as one transaction that a crash leaves old or new; runs on one DIR take turns, each waiting at most CCM_RENDER_LOCK_TIMEOUT seconds (default 30). Needed unless --ignition is given')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the --diff output: auto (when stdout is a terminal and NO_COLOR is not set), always or never')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'What to print on stdout: nothing (text; a summary goes to stderr) or a JSON summary of every file (json; see README)')
            [CompletionResult]::new('--hosted-control-plane', '--hosted-control-plane', [CompletionResultType]::ParameterName, 'A HyperShift HostedControlPlane (hypershift.openshift.io/v1beta1): render the CCM objects HyperShift''s control-plane-operator creates for it, under manifests/ (--images: the release''s image-references ImageStream; see docs/hosted.md)')
            [CompletionResult]::new('--hosted-cluster', '--hosted-cluster', [CompletionResultType]::ParameterName, 'A HyperShift HostedCluster, or the stream `hcp create cluster --render` prints (Namespace, Secrets, HostedCluster, NodePools): derive its HostedControlPlane as the hypershift-operator does and render that as --hosted-control-plane does (see docs/hosted.md)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'With --hosted-cluster: the HostedCluster to render when the stream holds several')
            [CompletionResult]::new('--emit-hosted-control-plane', '--emit-hosted-control-plane', [CompletionResultType]::ParameterName, 'With --hosted-cluster: also write the derived HostedControlPlane to FILE')
            [CompletionResult]::new('--operator-env', '--operator-env', [CompletionResultType]::ParameterName, 'With --hosted-control-plane: a variable of the control-plane-operator''s environment its CCM components read (MANAGED_SERVICE, ARO_HCP_KEY_VAULT_USER_CLIENT_ID, HTTP_PROXY, HTTPS_PROXY, NO_PROXY); with --hosted-cluster, of the hypershift-operator''s environment, which passes them on; repeat for each')
            [CompletionResult]::new('--ignition-manifests', '--ignition-manifests', [CompletionResultType]::ParameterName, 'With --ignition: also the post-install manifests, to /opt/openshift/manifests')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Render in memory and compare with DIR (and the --ignition FILE); write nothing. Lists the files that would be added, changed or removed; exit status 1 when there are any, 0 when there are none')
            [CompletionResult]::new('--diff', '--diff', [CompletionResultType]::ParameterName, 'Like --check, and print a unified diff of every change (credentials redacted)')
            [CompletionResult]::new('--prune', '--prune', [CompletionResultType]::ParameterName, 'Also remove (with --check/--diff: report) files under bootstrap/, config/, manifests/ and secrets/ that this render does not produce. Without it, no file is ever removed')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ccm-render;platforms' {
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print a table (text) or JSON (json; see README)')
            [CompletionResult]::new('--provider-dir', '--provider-dir', [CompletionResultType]::ParameterName, 'A folder of provider folders to list too (as render --provider-dir reads it)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ccm-render;placements' {
            [CompletionResult]::new('--dest-dir', '--dest-dir', [CompletionResultType]::ParameterName, 'A rendered directory: print one line per file in it instead of one per folder')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print lines `SOURCE TARGET MODE DIR-MODE` (text) or JSON (json; see README)')
            [CompletionResult]::new('--manifests', '--manifests', [CompletionResultType]::ParameterName, 'Also the post-install manifests (to /opt/openshift/manifests), as render --ignition-manifests')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ccm-render;provider' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Write a new provider folder DIR/NAME for platform External that checks and renders as is')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check a provider folder, or a folder of provider folders, with the checks render applies')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Bring the catalogue under assets/ to a CCCMO checkout''s templates for a release, or add a release newer than its newest; list by file what cannot be imported (a change of CCCMO''s Go code), with exit status 1 then')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ccm-render;provider;new' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Where to create the folder NAME')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ccm-render;provider;check' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ccm-render;provider;import' {
            [CompletionResult]::new('--cccmo-dir', '--cccmo-dir', [CompletionResultType]::ParameterName, 'A checkout of cluster-cloud-controller-manager-operator (the folder holding pkg/cloud/)')
            [CompletionResult]::new('--release', '--release', [CompletionResultType]::ParameterName, 'The release the checkout is (X.Y): one of the catalogue''s, or one newer than its newest, which becomes the newest')
            [CompletionResult]::new('--assets', '--assets', [CompletionResultType]::ParameterName, 'ccm-render''s assets folder')
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'The CCCMO branch the checkout is (default: git''s, else release-X.Y)')
            [CompletionResult]::new('--commit', '--commit', [CompletionResultType]::ParameterName, 'The CCCMO commit the checkout is (default: git''s; needed for a new release from a folder that is no git working copy)')
            [CompletionResult]::new('--date', '--date', [CompletionResultType]::ParameterName, 'The date of that commit, YYYY-MM-DD (default: git''s)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ccm-render;provider;help' {
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Write a new provider folder DIR/NAME for platform External that checks and renders as is')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check a provider folder, or a folder of provider folders, with the checks render applies')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Bring the catalogue under assets/ to a CCCMO checkout''s templates for a release, or add a release newer than its newest; list by file what cannot be imported (a change of CCCMO''s Go code), with exit status 1 then')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ccm-render;provider;help;new' {
            break
        }
        'ccm-render;provider;help;check' {
            break
        }
        'ccm-render;provider;help;import' {
            break
        }
        'ccm-render;provider;help;help' {
            break
        }
        'ccm-render;matrix' {
            [CompletionResult]::new('--provider-dir', '--provider-dir', [CompletionResultType]::ParameterName, 'A folder of provider folders that add to or override the built-in providers')
            [CompletionResult]::new('--cccmo-dir', '--cccmo-dir', [CompletionResultType]::ParameterName, 'A checkout of cluster-cloud-controller-manager-operator (the folder holding pkg/cloud/): the built-in providers'' manifests are its pkg/cloud/<platform>/assets/*.yaml, evaluated as CCCMO evaluates them, instead of ccm-render''s own copy. Without --release, the release is the one whose Go files (pkg/cloud/**/*.go) the checkout holds')
            [CompletionResult]::new('--inputs', '--inputs', [CompletionResultType]::ParameterName, 'Sample inputs of your own: DIR/PROVIDER/ holds any of infrastructure.yaml, infrastructure-sno.yaml, cloud-provider-config.yaml, images.json, network.yaml, proxy.yaml, apiserver-modern.yaml and featuregate-techpreview.yaml; the others are the samples built into ccm-render')
            [CompletionResult]::new('--release', '--release', [CompletionResultType]::ParameterName, 'The OpenShift release to render every case for, as `render --release` reads it (4.18 to 4.23, a full version, 5.0 and 5.1 as 4.23); repeat it for several, or give `all` for every release. Default: the newest, in folders PROVIDER/VARIANT/; with --release the folders are RELEASE/PROVIDER/VARIANT/ (RELEASE being X.Y), so that `diff -r DIR/4.21 DIR/4.22` shows what an upgrade changes. A --provider-dir provider is rendered only for the releases its spec.releases names')
            [CompletionResult]::new('--dest-dir', '--dest-dir', [CompletionResultType]::ParameterName, 'Output root (created if missing): one folder PROVIDER/VARIANT/ per case (RELEASE/PROVIDER/VARIANT/ with --release)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the --diff output: auto (when stdout is a terminal and NO_COLOR is not set), always or never')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'How many cases to render, compare or write at once, as cargo''s -j (default: the number of processors this process may run on)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'How many cases to render, compare or write at once, as cargo''s -j (default: the number of processors this process may run on)')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Render in memory and compare with DIR; write nothing. Lists the files that would be added, changed or removed and the cases they belong to; exit status 1 when there are any, 0 when there are none')
            [CompletionResult]::new('--diff', '--diff', [CompletionResultType]::ParameterName, 'Like --check, and print a unified diff of every change')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ccm-render;compare-hosted' {
            [CompletionResult]::new('--hosted-cluster', '--hosted-cluster', [CompletionResultType]::ParameterName, 'A HostedCluster, or the stream `hcp create cluster --render` prints: its hosted CCM (rendered as `render --hosted-cluster` renders it) instead of the default sample''s')
            [CompletionResult]::new('--images', '--images', [CompletionResultType]::ParameterName, 'With --hosted-cluster: the release''s image-references ImageStream')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'With --hosted-cluster: the HostedCluster to compare when the stream holds several')
            [CompletionResult]::new('--operator-env', '--operator-env', [CompletionResultType]::ParameterName, 'With --hosted-cluster: a variable of the hypershift-operator''s environment, as `render` takes it; repeat for each')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ccm-render;releases' {
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print a table (text) or JSON (json; see README)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ccm-render;completions' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ccm-render;help' {
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Render the objects for one cluster into a directory')
            [CompletionResult]::new('platforms', 'platforms', [CompletionResultType]::ParameterValue, 'List the platforms ccm-render knows and what each needs')
            [CompletionResult]::new('placements', 'placements', [CompletionResultType]::ParameterValue, 'Print where each output folder (or, with --dest-dir, each rendered file) lands on the bootstrap node, for the bootkube stage')
            [CompletionResult]::new('provider', 'provider', [CompletionResultType]::ParameterValue, 'Write or check a provider folder (a CCM described as data, for --provider-dir)')
            [CompletionResult]::new('matrix', 'matrix', [CompletionResultType]::ParameterValue, 'Render every provider across the standard variants, one folder per case, to review what a change to a provider or a template does everywhere')
            [CompletionResult]::new('compare-hosted', 'compare-hosted', [CompletionResultType]::ParameterValue, 'Compare a platform''s hosted CCM (HyperShift''s) with its standalone one (CCCMO''s), field by field: the binary and flags, environment, image, resource requests and the cloud config''s keys, from the samples matrix renders')
            [CompletionResult]::new('releases', 'releases', [CompletionResultType]::ParameterValue, 'List the OpenShift releases render --release accepts, the CCCMO commit each reproduces and what each changes')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script (the same files are committed under completions/)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ccm-render;help;render' {
            break
        }
        'ccm-render;help;platforms' {
            break
        }
        'ccm-render;help;placements' {
            break
        }
        'ccm-render;help;provider' {
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Write a new provider folder DIR/NAME for platform External that checks and renders as is')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check a provider folder, or a folder of provider folders, with the checks render applies')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Bring the catalogue under assets/ to a CCCMO checkout''s templates for a release, or add a release newer than its newest; list by file what cannot be imported (a change of CCCMO''s Go code), with exit status 1 then')
            break
        }
        'ccm-render;help;provider;new' {
            break
        }
        'ccm-render;help;provider;check' {
            break
        }
        'ccm-render;help;provider;import' {
            break
        }
        'ccm-render;help;matrix' {
            break
        }
        'ccm-render;help;compare-hosted' {
            break
        }
        'ccm-render;help;releases' {
            break
        }
        'ccm-render;help;completions' {
            break
        }
        'ccm-render;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
