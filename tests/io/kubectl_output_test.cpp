// Realistic `kubectl get nodes,pods -A -o json` output is a valid scenario as it is: the noise a live cluster adds
// (managedFields, status conditions and container statuses, owner chains, probes, volumes, nulls such as a taint's
// timeAdded) is accepted and ignored; pods bound to nodes occupy them; a DaemonSet's pod is recognised by its owner;
// Succeeded/Failed pods hold nothing; and a malformed field in such a dump still names the item and the JSON path.
// The page's import (web/kplace-worker.js) relies on this: it trims the dump but never rewrites what the parser reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/io/json_reader.h"
#include "core/io/scenario_parser.h"
#include "core/sim/simulation.h"

namespace kplace {
namespace {

// A kind cluster's node, coredns (a Deployment's pod via its ReplicaSet), kindnet (a DaemonSet's pod), a finished
// Job pod that would fill the node if it counted, and a pending pod.
const std::string kDump = R"json({
 "apiVersion": "v1",
 "items": [
  {
   "apiVersion": "v1",
   "kind": "Node",
   "metadata": {
    "annotations": {
     "node.alpha.kubernetes.io/ttl": "0",
     "volumes.kubernetes.io/controller-managed-attach-detach": "true"
    },
    "creationTimestamp": "2024-05-01T10:00:00Z",
    "labels": {
     "kubernetes.io/hostname": "kind-worker",
     "kubernetes.io/os": "linux",
     "kubernetes.io/arch": "amd64",
     "node-role.kubernetes.io/control-plane": ""
    },
    "managedFields": [
     {
      "apiVersion": "v1",
      "fieldsType": "FieldsV1",
      "fieldsV1": {
       "f:metadata": {
        "f:labels": {
         ".": {}
        }
       }
      },
      "manager": "kubelet",
      "operation": "Update",
      "time": "2024-05-01T10:00:00Z",
      "subresource": "status"
     }
    ],
    "name": "kind-worker",
    "resourceVersion": "12345",
    "uid": "0f7c7f4e-1111-2222-3333-444455556666"
   },
   "spec": {
    "podCIDR": "10.244.1.0/24",
    "podCIDRs": [
     "10.244.1.0/24"
    ],
    "providerID": "kind://docker/kind/kind-worker",
    "taints": [
     {
      "effect": "PreferNoSchedule",
      "key": "example.com/maintenance",
      "timeAdded": null
     }
    ]
   },
   "status": {
    "addresses": [
     {
      "address": "172.18.0.2",
      "type": "InternalIP"
     },
     {
      "address": "kind-worker",
      "type": "Hostname"
     }
    ],
    "allocatable": {
     "cpu": "8",
     "ephemeral-storage": "102626232Ki",
     "hugepages-1Gi": "0",
     "hugepages-2Mi": "0",
     "memory": "32786676Ki",
     "pods": "110"
    },
    "capacity": {
     "cpu": "8",
     "ephemeral-storage": "102626232Ki",
     "hugepages-1Gi": "0",
     "hugepages-2Mi": "0",
     "memory": "32786676Ki",
     "pods": "110"
    },
    "conditions": [
     {
      "lastHeartbeatTime": "2024-05-01T10:00:00Z",
      "lastTransitionTime": "2024-05-01T10:00:00Z",
      "message": "kubelet is posting ready status",
      "reason": "KubeletReady",
      "status": "True",
      "type": "Ready"
     }
    ],
    "daemonEndpoints": {
     "kubeletEndpoint": {
      "Port": 10250
     }
    },
    "images": [
     {
      "names": [
       "registry.k8s.io/etcd@sha256:abc",
       "registry.k8s.io/etcd:3.5.10-0"
      ],
      "sizeBytes": 57123456
     },
     {
      "names": [
       "docker.io/library/busybox@sha256:def"
      ],
      "sizeBytes": 2222
     }
    ],
    "nodeInfo": {
     "architecture": "amd64",
     "bootID": "x",
     "containerRuntimeVersion": "containerd://1.7.1",
     "kernelVersion": "6.1",
     "kubeProxyVersion": "v1.30.0",
     "kubeletVersion": "v1.30.0",
     "machineID": "m",
     "operatingSystem": "linux",
     "osImage": "Debian",
     "systemUUID": "u"
    },
    "runtimeHandlers": [
     {
      "features": {
       "recursiveReadOnlyMounts": true
      },
      "name": "runc"
     }
    ],
    "volumesAttached": null,
    "volumesInUse": null
   }
  },
  {
   "apiVersion": "v1",
   "kind": "Pod",
   "metadata": {
    "annotations": {
     "kubectl.kubernetes.io/restartedAt": "2024-05-01T10:00:00Z"
    },
    "creationTimestamp": "2024-05-01T10:01:00Z",
    "generateName": "coredns-7db6d8ff4d-",
    "labels": {
     "k8s-app": "kube-dns",
     "pod-template-hash": "7db6d8ff4d"
    },
    "managedFields": [
     {
      "apiVersion": "v1",
      "fieldsType": "FieldsV1",
      "fieldsV1": {
       "f:metadata": {}
      },
      "manager": "kube-controller-manager",
      "operation": "Update",
      "time": "2024-05-01T10:01:00Z"
     }
    ],
    "name": "coredns-7db6d8ff4d-abcde",
    "namespace": "kube-system",
    "ownerReferences": [
     {
      "apiVersion": "apps/v1",
      "blockOwnerDeletion": true,
      "controller": true,
      "kind": "ReplicaSet",
      "name": "coredns-7db6d8ff4d",
      "uid": "aaaa"
     }
    ],
    "resourceVersion": "777",
    "uid": "bbbb"
   },
   "spec": {
    "affinity": {
     "podAntiAffinity": {
      "preferredDuringSchedulingIgnoredDuringExecution": [
       {
        "podAffinityTerm": {
         "labelSelector": {
          "matchExpressions": [
           {
            "key": "k8s-app",
            "operator": "In",
            "values": [
             "kube-dns"
            ]
           }
          ]
         },
         "topologyKey": "kubernetes.io/hostname"
        },
        "weight": 100
       }
      ]
     }
    },
    "containers": [
     {
      "args": [
       "-conf",
       "/etc/coredns/Corefile"
      ],
      "image": "registry.k8s.io/coredns/coredns:v1.11.1",
      "imagePullPolicy": "IfNotPresent",
      "livenessProbe": {
       "failureThreshold": 5,
       "httpGet": {
        "path": "/health",
        "port": 8080,
        "scheme": "HTTP"
       },
       "initialDelaySeconds": 60,
       "periodSeconds": 10,
       "successThreshold": 1,
       "timeoutSeconds": 5
      },
      "name": "coredns",
      "ports": [
       {
        "containerPort": 53,
        "name": "dns",
        "protocol": "UDP"
       },
       {
        "containerPort": 9153,
        "name": "metrics",
        "protocol": "TCP"
       }
      ],
      "resources": {
       "limits": {
        "memory": "170Mi"
       },
       "requests": {
        "cpu": "100m",
        "memory": "70Mi"
       }
      },
      "securityContext": {
       "allowPrivilegeEscalation": false,
       "capabilities": {
        "add": [
         "NET_BIND_SERVICE"
        ],
        "drop": [
         "ALL"
        ]
       },
       "readOnlyRootFilesystem": true
      },
      "terminationMessagePath": "/dev/termination-log",
      "terminationMessagePolicy": "File",
      "volumeMounts": [
       {
        "mountPath": "/etc/coredns",
        "name": "config-volume",
        "readOnly": true
       }
      ]
     }
    ],
    "dnsPolicy": "Default",
    "enableServiceLinks": true,
    "nodeName": "kind-worker",
    "nodeSelector": {
     "kubernetes.io/os": "linux"
    },
    "preemptionPolicy": "PreemptLowerPriority",
    "priority": 2000000000,
    "priorityClassName": "system-cluster-critical",
    "restartPolicy": "Always",
    "schedulerName": "default-scheduler",
    "securityContext": {},
    "serviceAccount": "coredns",
    "serviceAccountName": "coredns",
    "terminationGracePeriodSeconds": 30,
    "tolerations": [
     {
      "key": "CriticalAddonsOnly",
      "operator": "Exists"
     },
     {
      "effect": "NoSchedule",
      "key": "node-role.kubernetes.io/control-plane"
     },
     {
      "effect": "NoExecute",
      "key": "node.kubernetes.io/not-ready",
      "operator": "Exists",
      "tolerationSeconds": 300
     },
     {
      "effect": "NoExecute",
      "key": "node.kubernetes.io/unreachable",
      "operator": "Exists",
      "tolerationSeconds": 300
     }
    ],
    "volumes": [
     {
      "configMap": {
       "defaultMode": 420,
       "items": [
        {
         "key": "Corefile",
         "path": "Corefile"
        }
       ],
       "name": "coredns"
      },
      "name": "config-volume"
     }
    ]
   },
   "status": {
    "conditions": [
     {
      "lastProbeTime": null,
      "lastTransitionTime": "2024-05-01T10:01:00Z",
      "status": "True",
      "type": "Ready"
     }
    ],
    "containerStatuses": [
     {
      "containerID": "containerd://x",
      "image": "registry.k8s.io/coredns/coredns:v1.11.1",
      "imageID": "sha",
      "lastState": {},
      "name": "coredns",
      "ready": true,
      "restartCount": 0,
      "started": true,
      "state": {
       "running": {
        "startedAt": "2024-05-01T10:01:05Z"
       }
      }
     }
    ],
    "hostIP": "172.18.0.2",
    "hostIPs": [
     {
      "ip": "172.18.0.2"
     }
    ],
    "phase": "Running",
    "podIP": "10.244.0.2",
    "podIPs": [
     {
      "ip": "10.244.0.2"
     }
    ],
    "qosClass": "Burstable",
    "startTime": "2024-05-01T10:01:00Z"
   }
  },
  {
   "apiVersion": "v1",
   "kind": "Pod",
   "metadata": {
    "name": "kindnet-xyz",
    "namespace": "kube-system",
    "labels": {
     "app": "kindnet"
    },
    "ownerReferences": [
     {
      "apiVersion": "apps/v1",
      "blockOwnerDeletion": true,
      "controller": true,
      "kind": "DaemonSet",
      "name": "kindnet",
      "uid": "cccc"
     }
    ]
   },
   "spec": {
    "affinity": {
     "nodeAffinity": {
      "requiredDuringSchedulingIgnoredDuringExecution": {
       "nodeSelectorTerms": [
        {
         "matchFields": [
          {
           "key": "metadata.name",
           "operator": "In",
           "values": [
            "kind-worker"
           ]
          }
         ]
        }
       ]
      }
     }
    },
    "containers": [
     {
      "name": "kindnet-cni",
      "image": "kindest/kindnetd:v1",
      "resources": {
       "limits": {
        "cpu": "100m",
        "memory": "50Mi"
       },
       "requests": {
        "cpu": "100m",
        "memory": "50Mi"
       }
      }
     }
    ],
    "hostNetwork": true,
    "nodeName": "kind-worker",
    "priority": 0,
    "tolerations": [
     {
      "operator": "Exists"
     }
    ]
   },
   "status": {
    "phase": "Running",
    "qosClass": "Guaranteed"
   }
  },
  {
   "apiVersion": "v1",
   "kind": "Pod",
   "metadata": {
    "name": "job-done-abc",
    "namespace": "default",
    "ownerReferences": [
     {
      "apiVersion": "batch/v1",
      "kind": "Job",
      "name": "job-done",
      "uid": "dddd",
      "controller": true
     }
    ]
   },
   "spec": {
    "containers": [
     {
      "name": "c",
      "image": "busybox",
      "resources": {
       "requests": {
        "cpu": "7900m"
       }
      }
     }
    ],
    "nodeName": "kind-worker",
    "restartPolicy": "Never"
   },
   "status": {
    "phase": "Succeeded"
   }
  },
  {
   "apiVersion": "v1",
   "kind": "Pod",
   "metadata": {
    "name": "pending-1",
    "namespace": "default"
   },
   "spec": {
    "containers": [
     {
      "name": "c",
      "image": "nginx",
      "resources": {
       "requests": {
        "cpu": "500m"
       }
      }
     }
    ],
    "schedulerName": "default-scheduler"
   },
   "status": {
    "conditions": [
     {
      "lastProbeTime": null,
      "lastTransitionTime": "2024-05-01T10:02:00Z",
      "message": "0/1 nodes are available",
      "reason": "Unschedulable",
      "status": "False",
      "type": "PodScheduled"
     }
    ],
    "phase": "Pending",
    "qosClass": "Burstable"
   }
  }
 ],
 "kind": "List",
 "metadata": {
  "resourceVersion": ""
 }
})json";

const sim::PodResult* Find(const sim::SimResult& r, const std::string& key) {
  auto it = std::find_if(r.pods.begin(), r.pods.end(), [&](const sim::PodResult& p) { return p.key == key; });
  return it == r.pods.end() ? nullptr : &*it;
}

TEST(KubectlOutput, ParsesWithItsNoise) {
  Scenario sc = io::ParseScenario(kDump);
  ASSERT_EQ(sc.nodes.size(), 1u);
  ASSERT_EQ(sc.pods.size(), 4u);
  EXPECT_EQ(sc.nodes[0].meta.name, "kind-worker");
  EXPECT_EQ(sc.pods[1].meta.owner_references.at(0).kind, "DaemonSet");
  EXPECT_EQ(sc.pods[0].node_name, "kind-worker");
}

TEST(KubectlOutput, BoundPodsOccupyTheirNodeAndFinishedPodsDoNot) {
  sim::SimResult r = sim::Run(io::ParseScenario(kDump));
  const sim::PodResult* pending = Find(r, "default/pending-1");
  ASSERT_NE(pending, nullptr);
  EXPECT_EQ(pending->node, "kind-worker") << pending->unschedulable;
  const sim::PodResult* coredns = Find(r, "kube-system/coredns-7db6d8ff4d-abcde");
  if (coredns) {
    EXPECT_EQ(coredns->node, "kind-worker");
  }
}

TEST(KubectlOutput, ABadFieldStillNamesItemAndPath) {
  std::string bad = kDump;
  const std::string from = R"("cpu": "500m")";
  auto at = bad.find(from);
  ASSERT_NE(at, std::string::npos);
  bad.replace(at, from.size(), R"("cpu": "half")");
  try {
    io::ParseScenario(bad);
    FAIL() << "no error";
  } catch (const io::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("items[4] (Pod default/pending-1): spec.containers[0].resources.requests.cpu"),
              std::string::npos)
        << e.what();
  }
}

// Large dumps skip nlohmann's callback parser (quadratic in a List's items) unless they may nest too deep; brackets
// and escaped quotes inside strings must not count as nesting.
TEST(KubectlOutput, BracketsInStringsAreNotNesting) {
  std::string brackets(300, '[');
  std::string text = R"({"kind":"List","items":[{"kind":"Node","metadata":{"name":"n","annotations":{"a":")" +
                     brackets + R"(\"\\)" + brackets + R"("}}}]})";
  Scenario sc = io::ParseScenario(text);
  ASSERT_EQ(sc.nodes.size(), 1u);
}

TEST(KubectlOutput, ManyItemsParse) {
  std::string text = R"({"apiVersion":"v1","kind":"List","items":[)";
  for (int i = 0; i < 20000; ++i) {
    if (i) text += ",\n";
    text +=
        R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p)" + std::to_string(i) +
        R"(","namespace":"default"},"spec":{"nodeName":"n","containers":[{"name":"c","resources":{"requests":{"cpu":"1m"}}}]}})";
  }
  text += "]}";
  Scenario sc = io::ParseScenario(text);
  EXPECT_EQ(sc.pods.size(), 20000u);
}

}  // namespace
}  // namespace kplace
