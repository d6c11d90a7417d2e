// Karpenter's kwok provider catalogue (kubernetes-sigs/karpenter kwok/cloudprovider/helpers.go, the
// instance_types.json that --instance-types-file-path reads) -> kplace InstanceTypes.
//
// Input: a JSON array of {name, offerings:[{Price, Available, ReservationCapacity, Requirements:[{key, operator,
// values}]}], architecture, operatingSystems:[...], resources:{cpu, memory, pods, ephemeral-storage, ...}}. Keys
// match case-insensitively after an exact match, as Go's encoding/json does; unknown keys are ignored.
// Conversion, as the kwok provider loads them: every offering available; pods defaults to 110; overhead
// (kubeReserved) cpu 100m + memory 10Mi; labels kubernetes.io/arch, kubernetes.io/os (one OS; several become an In
// requirement), karpenter.kwok.sh/instance-size (the AWS "family.size" size, else the cpu quantity),
// karpenter.kwok.sh/instance-family (the name before the first "." or "-", else its first character),
// karpenter.kwok.sh/instance-cpu and karpenter.kwok.sh/instance-memory (canonical quantity strings). Each offering's
// zone and capacity type come from its In requirements on topology.kubernetes.io/zone and
// karpenter.sh/capacity-type (several values: one kplace offering per pair); kplace offerings carry no other keys.
// ReservationCapacity is ignored (reserved capacity is not modelled). An offering in the older shape {capacityType,
// zone, price} (kwok/examples/instance_types.json), which no released provider reads, is an error showing it
// rewritten.
// Errors are io::InputError naming the array index, the type's name and the field path, e.g.
// `[3] (c-1x-amd64-linux): offerings[0].Price: expected number, got string`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/io/json_reader.h"
#include "core/model/objects.h"

namespace kplace::io {

// The InstanceTypes the kwok provider would build from the file's text.
std::vector<InstanceType> ParseKwokInstanceTypes(std::string_view text);

// The same types as a JSON array of kplace `InstanceType` List items (scenario-format.md), for pasting into a
// scenario's items.
Json KwokInstanceTypesToItemsJson(std::string_view text);
Json KwokDocumentToItemsJson(const Json& doc);  // the same, the file already parsed
std::string KwokInstanceTypesToItems(std::string_view text);

// resource.Quantity's canonical String() of a quantity's text ("2048Mi" -> "2Gi", "0.5" -> "500m", "1e3" -> "1e3");
// nullopt when text is not a quantity.
std::optional<std::string> CanonicalQuantity(std::string_view text);

}  // namespace kplace::io
