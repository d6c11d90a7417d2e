#!/usr/bin/env python3
"""Writes a large cluster dump shaped like `kubectl get nodes,daemonsets,deployments,replicasets,pods -A -o json`
prints it for a real cluster: the API server's objects with everything kplace never reads (managedFields, the
last-applied annotation, container statuses, env, probes, volumes, node images and conditions), kubectl's
4-space indentation and sorted keys, owner chains (Deployment -> ReplicaSet -> Pod, DaemonSet -> Pod), a settled
state (every controller's pods present) plus pending pods marked PodScheduled=False/Unschedulable.

    bench/cluster_dump.py [--nodes 5000] [--pods 50000] [--pending 2500] [--seed 1] [--compact] > dump.json

--compact prints what `kubectl get --raw` prints instead: one line, typed lists whose items carry no kind.
The same arguments always give the same bytes. The benchmark report (bench/REPORT.md) times `kplace run` on it.
"""
import argparse
import json
import random
import sys

ZONES = ["us-east-1a", "us-east-1b", "us-east-1c"]
TYPES = [("m5.xlarge", "4", "16"), ("m5.2xlarge", "8", "32"), ("c5.4xlarge", "16", "32"), ("r5.2xlarge", "8", "64")]
DAEMONSETS = [("kube-system", "kube-proxy", "100m", "128Mi"), ("kube-system", "aws-node", "25m", "64Mi"),
              ("monitoring", "node-exporter", "50m", "64Mi")]
TS = "2026-11-02T08:14:51Z"


ALPHABET = "bcdfghjklmnpqrstvwxz2456789"  # the API server's generateName alphabet
USED = set()


def suffix(rng, prefix):
    # A 5-character suffix as the API server gives generateName, unique in the dump.
    while True:
        name = prefix + "".join(rng.choice(ALPHABET) for _ in range(5))
        if name not in USED:
            USED.add(name)
            return name


def uid(rng):
    return "%08x-%04x-%04x-%04x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16),
                                          rng.getrandbits(16), rng.getrandbits(48))


def managed_fields(manager, fields):
    # The server-side apply bookkeeping every object carries (often the largest part of a dump).
    return [{"apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": fields, "manager": manager,
             "operation": "Update", "time": TS},
            {"apiVersion": "v1", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:status": {"f:conditions": {'k:{"type":"%s"}' % t: {".": {}, "f:lastProbeTime": {},
                                                                               "f:lastTransitionTime": {},
                                                                               "f:status": {}, "f:type": {}}
                                                       for t in ("Initialized", "Ready", "ContainersReady",
                                                                 "PodScheduled")}}},
             "manager": "kubelet", "operation": "Update", "subresource": "status", "time": TS}]


def node(rng, i):
    name = "ip-10-%d-%d-%d.ec2.internal" % (i // 65536 % 256, i // 256 % 256, i % 256)
    itype, cpu, mem = TYPES[i % len(TYPES)]
    zone = ZONES[i % len(ZONES)]
    labels = {"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/instance-type": itype,
              "beta.kubernetes.io/os": "linux", "failure-domain.beta.kubernetes.io/region": "us-east-1",
              "failure-domain.beta.kubernetes.io/zone": zone, "kubernetes.io/arch": "amd64",
              "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
              "node.kubernetes.io/instance-type": itype, "topology.kubernetes.io/region": "us-east-1",
              "topology.kubernetes.io/zone": zone, "eks.amazonaws.com/nodegroup": "ng-%d" % (i % 8),
              "eks.amazonaws.com/capacityType": "SPOT" if i % 3 == 0 else "ON_DEMAND"}
    alloc_cpu = str(int(cpu) * 1000 - 90) + "m"
    images = [{"names": ["registry.example.com/team-%d/service-%d@sha256:%064x" % (k % 17, k, rng.getrandbits(256)),
                         "registry.example.com/team-%d/service-%d:v1.%d.%d" % (k % 17, k, k % 9, k % 31)],
               "sizeBytes": 20000000 + rng.randrange(400000000)} for k in rng.sample(range(400), 24)]
    spec = {"providerID": "aws:///%s/i-%017x" % (zone, rng.getrandbits(68))}
    if i % 10 == 0:
        spec["taints"] = [{"effect": "NoSchedule", "key": "dedicated", "value": "batch"}]
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"annotations": {"alpha.kubernetes.io/provided-node-ip": "10.0.%d.%d" % (i // 256 % 256, i % 256),
                                     "node.alpha.kubernetes.io/ttl": "0",
                                     "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
                     "creationTimestamp": TS, "labels": labels,
                     "managedFields": managed_fields("kubelet", {"f:metadata": {"f:labels": {
                         "f:" + k: {} for k in labels}}, "f:spec": {"f:providerID": {}}}),
                     "name": name, "resourceVersion": str(1000000 + i), "uid": uid(rng)},
        "spec": spec,
        "status": {
            "addresses": [{"address": "10.0.%d.%d" % (i // 256 % 256, i % 256), "type": "InternalIP"},
                          {"address": name, "type": "Hostname"}, {"address": name, "type": "InternalDNS"}],
            "allocatable": {"cpu": alloc_cpu, "ephemeral-storage": "95491281146", "hugepages-1Gi": "0",
                            "hugepages-2Mi": "0", "memory": "%dKi" % (int(mem) * 1024 * 1024 - 600000),
                            "pods": "58"},
            "capacity": {"cpu": cpu, "ephemeral-storage": "104845292Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
                         "memory": "%dKi" % (int(mem) * 1024 * 1024), "pods": "58"},
            "conditions": [{"lastHeartbeatTime": TS, "lastTransitionTime": TS, "message": m, "reason": r,
                            "status": s, "type": t}
                           for t, s, r, m in (("MemoryPressure", "False", "KubeletHasSufficientMemory",
                                               "kubelet has sufficient memory available"),
                                              ("DiskPressure", "False", "KubeletHasNoDiskPressure",
                                               "kubelet has no disk pressure"),
                                              ("PIDPressure", "False", "KubeletHasSufficientPID",
                                               "kubelet has sufficient PID available"),
                                              ("Ready", "True", "KubeletReady", "kubelet is posting ready status"))],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "images": images,
            "nodeInfo": {"architecture": "amd64", "bootID": uid(rng), "containerRuntimeVersion": "containerd://1.7.22",
                         "kernelVersion": "6.1.112-122.189.amzn2023.x86_64", "kubeProxyVersion": "v1.33.5-eks",
                         "kubeletVersion": "v1.33.5-eks", "machineID": "%032x" % rng.getrandbits(128),
                         "operatingSystem": "linux", "osImage": "Amazon Linux 2023.6.20241031",
                         "systemUUID": uid(rng)}}}, name, zone


def container(rng, name, image, cpu, mem):
    return {"env": [{"name": "SERVICE_%d" % k, "value": "http://svc-%d.default.svc.cluster.local:8080" % k}
                    for k in range(2)] +
                   [{"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}}],
            "image": image, "imagePullPolicy": "IfNotPresent", "name": name,
            "livenessProbe": {"failureThreshold": 3, "httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"},
                              "periodSeconds": 10, "successThreshold": 1, "timeoutSeconds": 1},
            "ports": [{"containerPort": 8080, "name": "http", "protocol": "TCP"}],
            "resources": {"limits": {"memory": mem}, "requests": {"cpu": cpu, "memory": mem}},
            "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
            "volumeMounts": [{"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                              "name": "kube-api-access-%05x" % rng.getrandbits(20), "readOnly": True}]}


def pod(rng, name, ns, labels, owner, cpu, mem, node_name, pending):
    image = "registry.example.com/%s/%s:v1.4.%d" % (ns, labels.get("app", name), rng.randrange(40))
    c = container(rng, "main", image, cpu, mem)
    meta = {"annotations": {"kubectl.kubernetes.io/last-applied-configuration": json.dumps(
                {"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": labels, "name": name, "namespace": ns},
                 "spec": {"containers": [{"image": image, "name": "main"}]}}) + "\n",
                            "prometheus.io/scrape": "true"},
            "creationTimestamp": TS, "generateName": name[:name.rfind("-") + 1], "labels": labels,
            "managedFields": managed_fields("kube-controller-manager", {"f:metadata": {
                "f:generateName": {}, "f:labels": {"f:" + k: {} for k in labels},
                "f:ownerReferences": {'k:{"uid":"%s"}' % owner["uid"]: {}}}, "f:spec": {
                "f:containers": {'k:{"name":"main"}': {"f:env": {}, "f:image": {}, "f:resources": {}}}}}),
            "name": name, "namespace": ns, "ownerReferences": [owner], "resourceVersion": str(rng.randrange(10 ** 8)),
            "uid": uid(rng)}
    spec = {"containers": [c], "dnsPolicy": "ClusterFirst", "enableServiceLinks": True, "preemptionPolicy":
            "PreemptLowerPriority", "priority": 0, "restartPolicy": "Always", "schedulerName": "default-scheduler",
            "securityContext": {}, "serviceAccount": "default", "serviceAccountName": "default",
            "terminationGracePeriodSeconds": 30,
            "tolerations": [{"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists",
                             "tolerationSeconds": 300},
                            {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists",
                             "tolerationSeconds": 300}],
            "volumes": [{"name": c["volumeMounts"][0]["name"], "projected": {"defaultMode": 420, "sources": [
                {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                {"configMap": {"items": [{"key": "ca.crt", "path": "ca.crt"}], "name": "kube-root-ca.crt"}},
                {"downwardAPI": {"items": [{"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"},
                                            "path": "namespace"}]}}]}}]}
    if pending:
        status = {"conditions": [{"lastProbeTime": None, "lastTransitionTime": TS,
                                  "message": "0/5000 nodes are available: 5000 Insufficient cpu. preemption: 0/5000 "
                                             "nodes are available: 5000 No preemption victims found for incoming pod.",
                                  "reason": "Unschedulable", "status": "False", "type": "PodScheduled"}],
                  "phase": "Pending", "qosClass": "Burstable"}
    else:
        spec["nodeName"] = node_name
        status = {"conditions": [{"lastProbeTime": None, "lastTransitionTime": TS, "status": "True", "type": t}
                                 for t in ("PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady",
                                           "PodScheduled")],
                  "containerStatuses": [{"containerID": "containerd://%064x" % rng.getrandbits(256),
                                         "image": image, "imageID": image.split(":")[0] + "@sha256:%064x" %
                                         rng.getrandbits(256), "lastState": {}, "name": "main", "ready": True,
                                         "restartCount": 0, "started": True,
                                         "state": {"running": {"startedAt": TS}}}],
                  "hostIP": "10.0.0.1", "hostIPs": [{"ip": "10.0.0.1"}], "phase": "Running",
                  "podIP": "10.1.%d.%d" % (rng.randrange(256), rng.randrange(256)),
                  "podIPs": [{"ip": "10.1.0.1"}], "qosClass": "Burstable", "startTime": TS}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": status}


def owner_ref(kind, name, u):
    api = "apps/v1"
    return {"apiVersion": api, "blockOwnerDeletion": True, "controller": True, "kind": kind, "name": name, "uid": u}


def workload_meta(rng, name, ns, labels):
    return {"annotations": {"deployment.kubernetes.io/revision": "3"}, "creationTimestamp": TS, "generation": 3,
            "labels": labels, "name": name, "namespace": ns, "resourceVersion": str(rng.randrange(10 ** 8)),
            "uid": uid(rng)}


def template(labels, cpu, mem):
    return {"metadata": {"labels": labels}, "spec": {"containers": [
        {"image": "registry.example.com/app:v1", "name": "main",
         "resources": {"limits": {"memory": mem}, "requests": {"cpu": cpu, "memory": mem}}}]}}


def generate(args):
    rng = random.Random(args.seed)
    nodes, daemonsets, deployments, replicasets, pods = [], [], [], [], []
    names = []
    free = []  # cpu millicores left per node, to place bound pods where they fit
    for i in range(args.nodes):
        n, name, _ = node(rng, i)
        nodes.append(n)
        names.append(name)
        free.append(int(n["status"]["allocatable"]["cpu"][:-1]))
    # DaemonSets: one pod per node (nodes tainted dedicated=batch get none: no toleration).
    for ns, ds, cpu, mem in DAEMONSETS:
        labels = {"k8s-app": ds}
        meta = workload_meta(rng, ds, ns, labels)
        daemonsets.append({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": meta,
                           "spec": {"selector": {"matchLabels": labels}, "template": template(labels, cpu, mem)},
                           "status": {"currentNumberScheduled": args.nodes, "desiredNumberScheduled": args.nodes}})
        ref = owner_ref("DaemonSet", ds, meta["uid"])
        for i, name in enumerate(names):
            if i % 10 == 0:
                continue
            p = pod(rng, suffix(rng, ds + "-"), ns, dict(labels), ref, cpu, mem, name, False)
            p["spec"]["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": [name]}]}]}}}
            p["spec"]["tolerations"] += [{"effect": "NoSchedule", "key": "node.kubernetes.io/disk-pressure",
                                          "operator": "Exists"}]
            free[i] -= int(cpu[:-1])
            pods.append(p)
    # Deployments of 10 replicas each; their pods bound where they fit, the last --pending of them Pending.
    remaining = args.pods - len(pods)
    n_deploy = max(1, remaining // 10)
    bound_target = remaining - args.pending
    k = 0
    for d in range(n_deploy):
        ns = "team-%d" % (d % 40)
        app = "svc-%d" % d
        labels = {"app": app}
        cpu = ["100m", "250m", "500m", "1"][d % 4]
        mem = ["128Mi", "256Mi", "512Mi", "1Gi"][d % 4]
        replicas = 10 if d < n_deploy - 1 else remaining - 10 * (n_deploy - 1)
        dmeta = workload_meta(rng, app, ns, labels)
        deployments.append({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": dmeta,
                            "spec": {"replicas": replicas, "selector": {"matchLabels": labels},
                                     "template": template(labels, cpu, mem)},
                            "status": {"replicas": replicas}})
        phash = "%010x" % rng.getrandbits(40)
        rs_name = "%s-%s" % (app, phash[:10])
        rlabels = dict(labels, **{"pod-template-hash": phash[:10]})
        rmeta = workload_meta(rng, rs_name, ns, rlabels)
        rmeta["ownerReferences"] = [owner_ref("Deployment", app, dmeta["uid"])]
        replicasets.append({"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": rmeta,
                            "spec": {"replicas": replicas, "selector": {"matchLabels": rlabels},
                                     "template": template(rlabels, cpu, mem)},
                            "status": {"replicas": replicas}})
        ref = owner_ref("ReplicaSet", rs_name, rmeta["uid"])
        millis = int(cpu[:-1]) if cpu.endswith("m") else int(cpu) * 1000
        for _ in range(replicas):
            pending = k >= bound_target
            node_name = None
            if not pending:
                for _try in range(8):
                    i = rng.randrange(args.nodes)
                    if free[i] >= millis and i % 10 != 0:
                        free[i] -= millis
                        node_name = names[i]
                        break
                pending = node_name is None
            pods.append(pod(rng, suffix(rng, rs_name + "-"), ns, dict(rlabels), ref, cpu, mem,
                            node_name, pending))
            k += 1
    return nodes, daemonsets, deployments, replicasets, pods


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--pods", type=int, default=50000)
    ap.add_argument("--pending", type=int, default=2500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compact", action="store_true")
    args = ap.parse_args()
    nodes, daemonsets, deployments, replicasets, pods = generate(args)
    out = sys.stdout
    if args.compact:
        # kubectl get --raw: one typed list per kind, items without kind/apiVersion, one line each.
        for kind, api, objs in (("NodeList", "v1", nodes), ("DaemonSetList", "apps/v1", daemonsets),
                                ("DeploymentList", "apps/v1", deployments),
                                ("ReplicaSetList", "apps/v1", replicasets), ("PodList", "v1", pods)):
            for o in objs:
                del o["kind"], o["apiVersion"]
            json.dump({"kind": kind, "apiVersion": api, "metadata": {"resourceVersion": "123456789"}, "items": objs},
                      out, separators=(",", ":"))
            out.write("\n")
    else:
        json.dump({"apiVersion": "v1", "items": nodes + daemonsets + deployments + replicasets + pods, "kind": "List",
                   "metadata": {"resourceVersion": ""}}, out, indent=4, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
