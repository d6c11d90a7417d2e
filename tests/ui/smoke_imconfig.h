// Dear ImGui configuration of the UI smoke test (IMGUI_USER_CONFIG): every IM_ASSERT is checked and counted, in
// a release build too, instead of aborting. Covers ImGui's own sanity checks (Begin/End, Push/Pop pairs, ...).
#pragma once

void KplaceSmokeAssertFailed(const char* expr, const char* file, int line);
#define IM_ASSERT(_EXPR) ((_EXPR) ? (void)0 : KplaceSmokeAssertFailed(#_EXPR, __FILE__, __LINE__))
