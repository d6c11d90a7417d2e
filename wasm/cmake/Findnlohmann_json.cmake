# nlohmann/json for Emscripten builds. The Emscripten sysroot must not see /usr/include (its libc headers would
# clash), so the header-only library is exposed through a build-dir include folder that holds only a symlink
# nlohmann -> <system include>/nlohmann. The wasm preset puts this folder on CMAKE_MODULE_PATH.
find_path(nlohmann_json_SYSTEM_INCLUDE_DIR nlohmann/json.hpp PATHS /usr/include /usr/local/include NO_DEFAULT_PATH
          NO_CMAKE_FIND_ROOT_PATH)
if(nlohmann_json_SYSTEM_INCLUDE_DIR)
  # 3.11 defines the version in detail/abi_macros.hpp, older releases in json.hpp.
  set(_h "${nlohmann_json_SYSTEM_INCLUDE_DIR}/nlohmann/detail/abi_macros.hpp")
  if(NOT EXISTS "${_h}")
    set(_h "${nlohmann_json_SYSTEM_INCLUDE_DIR}/nlohmann/json.hpp")
  endif()
  file(STRINGS "${_h}" _nlohmann_version_lines
       REGEX "#define NLOHMANN_JSON_VERSION_(MAJOR|MINOR|PATCH) [0-9]+")
  foreach(_part MAJOR MINOR PATCH)
    string(REGEX REPLACE ".*NLOHMANN_JSON_VERSION_${_part} ([0-9]+).*" "\\1" _v_${_part} "${_nlohmann_version_lines}")
  endforeach()
  set(nlohmann_json_VERSION "${_v_MAJOR}.${_v_MINOR}.${_v_PATCH}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(nlohmann_json REQUIRED_VARS nlohmann_json_SYSTEM_INCLUDE_DIR
                                  VERSION_VAR nlohmann_json_VERSION)

if(nlohmann_json_FOUND AND NOT TARGET nlohmann_json::nlohmann_json)
  set(_dir "${CMAKE_BINARY_DIR}/_deps/nlohmann_json/include")
  file(MAKE_DIRECTORY "${_dir}")
  file(CREATE_LINK "${nlohmann_json_SYSTEM_INCLUDE_DIR}/nlohmann" "${_dir}/nlohmann" SYMBOLIC)
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_dir}")
endif()
