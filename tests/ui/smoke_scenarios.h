// Scenarios the UI smoke test draws besides the presets. kKarpenter: two NodePools (one tainted, spot only, with a
// cpu limit), two instance types in two zones, an existing managed node with a NoSchedule taint and an unmanaged
// one, a DaemonSet, a Deployment that needs new capacity, a pod whose zone preference must be relaxed, one that
// tolerates the tainted pool, one too large for any instance type, and one pinned to an existing node. Written in
// karpenter mode; the test also runs it in cluster mode.
#pragma once

namespace kplace::smoke {

inline constexpr const char* kKarpenter = R"json({
  "apiVersion": "v1",
  "kind": "List",
  "items": [
    {
      "apiVersion": "kplace.dev/v1alpha1",
      "kind": "Simulation",
      "metadata": {"name": "karpenter-smoke"},
      "spec": {"mode": "karpenter", "seed": 0}
    },
    {
      "apiVersion": "karpenter.sh/v1",
      "kind": "NodePool",
      "metadata": {"name": "default"},
      "spec": {
        "template": {
          "spec": {
            "requirements": [
              {
                "key": "karpenter.sh/capacity-type",
                "operator": "In",
                "values": ["spot", "on-demand"]
              }
            ]
          }
        }
      }
    },
    {
      "apiVersion": "karpenter.sh/v1",
      "kind": "NodePool",
      "metadata": {"name": "batch"},
      "spec": {
        "weight": 10,
        "limits": {"cpu": "4"},
        "template": {
          "spec": {
            "requirements": [{"key": "karpenter.sh/capacity-type", "operator": "In", "values": ["spot"]}],
            "taints": [{"key": "batch", "effect": "NoSchedule"}]
          }
        }
      }
    },
    {
      "apiVersion": "kplace.dev/v1alpha1",
      "kind": "InstanceType",
      "metadata": {"name": "m.small"},
      "spec": {
        "capacity": {"cpu": "2", "memory": "4Gi", "pods": "20"},
        "overhead": {"cpu": "100m", "memory": "256Mi"},
        "offerings": [
          {"zone": "zone-a", "capacityType": "on-demand", "price": 0.05},
          {"zone": "zone-b", "capacityType": "on-demand", "price": 0.05},
          {"zone": "zone-a", "capacityType": "spot", "price": 0.02}
        ]
      }
    },
    {
      "apiVersion": "kplace.dev/v1alpha1",
      "kind": "InstanceType",
      "metadata": {"name": "m.large"},
      "spec": {
        "capacity": {"cpu": "8", "memory": "16Gi", "pods": "50"},
        "overhead": {"cpu": "200m", "memory": "512Mi"},
        "offerings": [
          {"zone": "zone-a", "capacityType": "on-demand", "price": 0.2},
          {"zone": "zone-b", "capacityType": "on-demand", "price": 0.2},
          {"zone": "zone-b", "capacityType": "spot", "price": 0.07}
        ]
      }
    },
    {
      "apiVersion": "v1",
      "kind": "Node",
      "metadata": {
        "name": "existing-1",
        "labels": {
          "kubernetes.io/hostname": "existing-1",
          "topology.kubernetes.io/zone": "zone-a",
          "node.kubernetes.io/instance-type": "m.small",
          "karpenter.sh/nodepool": "default",
          "karpenter.sh/capacity-type": "on-demand"
        }
      },
      "status": {"allocatable": {"cpu": "1900m", "memory": "3840Mi", "pods": "20"}},
      "spec": {"taints": [{"key": "maintenance", "effect": "NoSchedule"}]}
    },
    {
      "apiVersion": "v1",
      "kind": "Node",
      "metadata": {
        "name": "existing-2",
        "labels": {"kubernetes.io/hostname": "existing-2", "topology.kubernetes.io/zone": "zone-b"}
      },
      "status": {"allocatable": {"cpu": "1", "memory": "2Gi", "pods": "20"}}
    },
    {
      "apiVersion": "apps/v1",
      "kind": "DaemonSet",
      "metadata": {"name": "logging", "namespace": "kube-system"},
      "spec": {
        "selector": {"matchLabels": {"app": "logging"}},
        "template": {
          "metadata": {"labels": {"app": "logging"}},
          "spec": {
            "containers": [
              {
                "name": "agent",
                "image": "fluent-bit",
                "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}}
              }
            ]
          }
        }
      }
    },
    {
      "apiVersion": "apps/v1",
      "kind": "Deployment",
      "metadata": {"name": "web", "namespace": "default"},
      "spec": {
        "replicas": 5,
        "selector": {"matchLabels": {"app": "web"}},
        "template": {
          "metadata": {"labels": {"app": "web"}},
          "spec": {
            "containers": [
              {
                "name": "nginx",
                "image": "nginx",
                "resources": {"requests": {"cpu": "700m", "memory": "512Mi"}}
              }
            ]
          }
        }
      }
    },
    {
      "apiVersion": "v1",
      "kind": "Pod",
      "metadata": {"name": "zonal", "namespace": "default"},
      "spec": {
        "containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "500m"}}}],
        "affinity": {
          "nodeAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
              {
                "weight": 10,
                "preference": {
                  "matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["zone-c"]}]
                }
              }
            ]
          }
        }
      },
      "status": {
        "phase": "Pending",
        "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]
      }
    },
    {
      "apiVersion": "v1",
      "kind": "Pod",
      "metadata": {"name": "cruncher", "namespace": "default"},
      "spec": {
        "containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "1500m"}}}],
        "tolerations": [{"key": "batch", "operator": "Exists", "effect": "NoSchedule"}]
      },
      "status": {
        "phase": "Pending",
        "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]
      }
    },
    {
      "apiVersion": "v1",
      "kind": "Pod",
      "metadata": {"name": "huge", "namespace": "default"},
      "spec": {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "64"}}}]},
      "status": {
        "phase": "Pending",
        "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]
      }
    },
    {
      "apiVersion": "v1",
      "kind": "Pod",
      "metadata": {"name": "pinned", "namespace": "default"},
      "spec": {
        "nodeSelector": {"kubernetes.io/hostname": "existing-2"},
        "containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "100m"}}}]
      },
      "status": {
        "phase": "Pending",
        "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]
      }
    }
  ]
}
)json";

}  // namespace kplace::smoke
