// SPDX-License-Identifier: Zlib
// butano_check.cpp - drives Butano's own sprite tiles manager with a trace's
// OBJ requests and writes the trace again with at= set to where Butano put
// each allocation (docs/butano.md, "Checked against Butano's code").
//
// Butano's bn_sprite_tiles_manager.cpp is compiled here from a checkout,
// unchanged (build.sh puts its src/ and include/ on the include path);
// bn_shims.h stands in for its asserts and its GBA hardware layer. The trace
// is read and written with vramsim's own trace code (src/trace).
//
//   butano-check [--graphics tag|each|raw] [--compressed] [--arena NAME] IN.trace OUT.trace
//
// Requests: `graphics=tag` (the default) creates graphics named by tag and
// tile count, as butano-sprite-tiles does, and calls allocate for a request
// without a tag (no graphics); `each` creates graphics of their
// own for every request; `raw` calls allocate. --compressed makes the
// graphics LZ77 (butano-sprite-tiles' compressed=1). `free` is
// decrease_usages; `frame` is update and then commit, as bn::core::update
// runs them. Where Butano fails (create_optional or allocate_optional
// return -1, or an assert stops the game) the allocation
// is written at=none after a comment line that says why. Butano stops the
// game at an assert; here the manager's books are put back as they were
// before the call, and when the call had freed every waiting item to make
// room (create's flush, which comes before the split that asserts) that is
// done again with Butano's own update, so the run goes on from where the
// manager stood when it stopped, as vramsim's model does.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <unordered_map>
#include <utility>

#include "bn_shims.h"
#include "bn_sprite_tiles_manager.cpp"
#include "bn_version.h"

extern "C" {
#include "base/out_file.h"
#include "trace/trace.h"
}

namespace bn::sprite_tiles_manager {
// The manager's books, and the same as one block of bytes to put them back
// after an assert: data_buffer from 20.1.0 on, the object itself before.
#if BN_VERSION_MAJOR > 20 || (BN_VERSION_MAJOR == 20 && BN_VERSION_MINOR >= 1)
static static_data &bc_data()
{
	return data_ref();
}
#else
static static_data &bc_data()
{
	return data;
}
#endif
static char *bc_books()
{
	return reinterpret_cast<char *>(&bc_data());
}
static const size_t bc_books_size = sizeof(static_data);
}

namespace {

namespace stm = bn::sprite_tiles_manager;

enum graphics_kind { GRAPHICS_TAG, GRAPHICS_EACH, GRAPHICS_RAW };

constexpr uint32_t TILE_BYTES = 32;

// A run of the manager over one trace.
struct check_run {
	graphics_kind graphics = GRAPHICS_TAG;
	bool compressed = false;
	int arena = -1;
	bool bitmap = false;
	// trace id -> Butano item id, for the allocations Butano placed
	std::unordered_map<uint64_t, int> items;
	// graphics=tag: (tag, tiles) -> the graphics' address
	std::map<std::pair<uint32_t, int>, const bn::tile *> graphics_of;
	uintptr_t next_graphics = 0;
	uint64_t placed = 0, failed = 0, asserts = 0;
	char books[stm::bc_books_size];
};

// Graphics are named by an address Butano never reads (the shims copy
// nothing): a distinct 4 KiB step for each.
const bn::tile *new_graphics(check_run &run)
{
	return reinterpret_cast<const bn::tile *>(uintptr_t(0x08000000u) + TILE_BYTES * 128u * ++run.next_graphics);
}

void start(check_run &run)
{
	stm::init();
	run.items.clear();
#if BN_VERSION_MAJOR >= 21
	// bn::bgs_manager creates a bitmap BG with allocate_first_half
	if (run.bitmap)
		(void)stm::allocate_first_half(false);
#endif
}

// A frame as bn::core::update runs it: update, then in the vertical blank
// the tiles loaded late are copied (commit), which empties the lists of
// them (an item in such a list takes a place that holds max_items).
void frame()
{
	stm::update();
#if BN_VERSION_MAJOR > 10 || (BN_VERSION_MAJOR == 10 && BN_VERSION_MINOR >= 6)
	stm::commit_uncompressed(false);
	stm::commit_compressed();
#else
	stm::commit();
#endif
}

// Butano's answer for one request: the item, or -1 with why in *why.
int place(check_run &run, const vs_event &ev, char *why, size_t whylen)
{
	uint32_t tiles = (ev.req.size + TILE_BYTES - 1u) / TILE_BYTES;
	bool bpp8 = ev.req.shape == VS_REQ_SPRITE ? ev.req.u.sprite.bpp == 8 : tiles > 64u;
	bn::bpp_mode bpp = bpp8 ? bn::bpp_mode::BPP_8 : bn::bpp_mode::BPP_4;
	int n = int(tiles), id = -1;

	if (ev.req.align > TILE_BYTES) {
		snprintf(why, whylen, "align=%u: Butano has no alignment", unsigned(ev.req.align));
		return -1;
	}
	bool waiting = stm::bc_data().to_remove_tiles_count != 0;

	std::memcpy(run.books, stm::bc_books(), stm::bc_books_size);
	// graphics=tag: the tag is the graphics; a request without one has none
	bool raw = run.graphics == GRAPHICS_RAW || (run.graphics == GRAPHICS_TAG && !ev.req.tag);
	try {
		if (raw) {
			id = stm::allocate_optional(n, bpp);
		} else {
			const bn::tile *g;
			if (run.graphics == GRAPHICS_TAG) {
				auto key = std::make_pair(ev.req.tag, n);
				auto it = run.graphics_of.find(key);
				g = it != run.graphics_of.end() ? it->second : (run.graphics_of[key] = new_graphics(run));
			} else {
				g = new_graphics(run);
			}
			// the item's constructor asserts valid_tiles_count, as a game's does
			bn::sprite_tiles_item item(bn::span<const bn::tile>(g, n), bpp,
				run.compressed ? bn::compression_type::LZ77 : bn::compression_type::NONE);
			id = stm::create_optional(item.tiles_ref(), item.compression());
		}
		if (id < 0)
			snprintf(why, whylen, "%s returned -1: no more available VRAM",
				raw ? "allocate_optional" : "create_optional");
	} catch (const bc_stop &stop) {
		const char *file = std::strrchr(stop.file, '/');
		// a create that found no room freed every waiting item (update)
		// and set delay_commit before it tried again and stopped
		bool flushed = waiting && !stm::bc_data().to_remove_tiles_count;
		std::memcpy(stm::bc_books(), run.books, stm::bc_books_size);
		if (flushed) {
			stm::update();
			stm::bc_data().delay_commit = true;
		}
		run.asserts++;
		snprintf(why, whylen, "Butano stops at %s:%d (%s); the manager is put back as before the call%s",
			file ? file + 1 : stop.file, stop.line, stop.what, flushed ? ", then flushed as the call did" : "");
		id = -1;
	}
	return id;
}

// An event of the OBJ arena, told to Butano; alloc events get their at=.
// 0, or -1 (with a message) for what this check cannot follow.
int follow(check_run &run, vs_event &ev, const vs_trace_header *h, FILE *out)
{
	char why[200];
	int id;

	switch (ev.type) {
	case VS_EV_REALLOC:
	case VS_EV_FREE: {
		auto it = run.items.find(ev.id);
		if (it != run.items.end()) {
			stm::decrease_usages(it->second);
			run.items.erase(it);
		}
		if (ev.type == VS_EV_FREE)
			return 0;
	}
		[[fallthrough]];
	case VS_EV_ALLOC:
		if (ev.arena != run.arena)
			return 0;
		id = place(run, ev, why, sizeof why);
		if (id >= 0) {
			run.items[ev.id] = id;
			ev.req.has_at = VS_AT_ADDR;
			ev.req.at = h->arenas[run.arena].base + uint32_t(stm::start_tile(id)) * TILE_BYTES;
			run.placed++;
		} else {
			fprintf(out, "# butano-check: id %llu: %s\n", (unsigned long long)ev.id, why);
			ev.req.has_at = VS_AT_FAILED;
			run.failed++;
		}
		return 0;
	case VS_EV_FRAME:
		frame();
		return 0;
	case VS_EV_RESET:
	case VS_EV_INIT:
		if (ev.arena == run.arena || ev.arena < 0)
			start(run);
		return 0;
	case VS_EV_SAVE:
	case VS_EV_RESTORE:
		if (ev.arena == run.arena || ev.arena < 0) {
			fprintf(stderr, "butano-check: line %llu: %s of the OBJ arena: not followed\n",
				(unsigned long long)ev.line, vs_trace_event_name(ev.type));
			return -1;
		}
		return 0;
	default:
		return 0;
	}
}

int pick_arena(check_run &run, const vs_trace_header *h, const char *name, const char *path)
{
	for (int i = 0; i < h->narenas; i++) {
		if (h->arenas[i].kind != VS_ARENA_GBA_OBJ || (name && std::strcmp(name, h->arenas[i].name)))
			continue;
		if (run.arena >= 0) {
			fprintf(stderr, "butano-check: %s: several gba-obj arenas: name one with --arena\n", path);
			return -1;
		}
		run.arena = i;
	}
	if (run.arena < 0) {
		fprintf(stderr, "butano-check: %s: no gba-obj arena%s%s\n", path, name ? " named " : "", name ? name : "");
		return -1;
	}
	if (h->arenas[run.arena].gba_obj_2d) {
		fprintf(stderr, "butano-check: %s: arena %s uses 2D mapping; Butano maps OBJ tiles 1D\n", path,
			h->arenas[run.arena].name);
		return -1;
	}
	run.bitmap = h->arenas[run.arena].gba_mode >= 3;
	if (run.bitmap && BN_VERSION_MAJOR < 21) {
		fprintf(stderr, "butano-check: %s: arena %s is in bitmap mode %u; Butano %s has no bitmap BGs\n", path,
			h->arenas[run.arena].name, unsigned(h->arenas[run.arena].gba_mode), BN_VERSION_STRING);
		return -1;
	}
	return 0;
}

int usage()
{
	fputs("usage: butano-check [--graphics tag|each|raw] [--compressed] [--arena NAME] IN.trace OUT.trace\n"
	      "Replays IN's OBJ requests through Butano " BN_VERSION_STRING "'s sprite tiles manager and writes\n"
	      "OUT with at= set where Butano placed each allocation (at=none where it failed).\n",
		stderr);
	return 2;
}

int run_trace(check_run &run, vs_trace_reader *r, vs_out_file *of)
{
	const vs_trace_header *h = vs_trace_header_of(r);
	vs_event ev;
	int rc;

	start(run);
	if (vs_trace_write_header(of->fp, h))
		return -1;
	while ((rc = vs_trace_next(r, &ev)) > 0) {
		if (follow(run, ev, h, of->fp) || vs_trace_write_event(of->fp, h, &ev))
			return -1;
	}
	if (rc < 0)
		fprintf(stderr, "%s\n", vs_trace_error(r));
	return rc;
}

} // namespace

int main(int argc, char **argv)
{
	static check_run run;
	const char *arena = nullptr;
	char err[512];
	vs_out_file of;
	int i = 1, rc;

	for (; i + 1 < argc && argv[i][0] == '-' && argv[i][1] == '-'; i += 2) {
		if (!std::strcmp(argv[i], "--compressed")) {
			run.compressed = true;
			i--;
		} else if (!std::strcmp(argv[i], "--arena"))
			arena = argv[i + 1];
		else if (!std::strcmp(argv[i], "--graphics") && !std::strcmp(argv[i + 1], "tag"))
			run.graphics = GRAPHICS_TAG;
		else if (!std::strcmp(argv[i], "--graphics") && !std::strcmp(argv[i + 1], "each"))
			run.graphics = GRAPHICS_EACH;
		else if (!std::strcmp(argv[i], "--graphics") && !std::strcmp(argv[i + 1], "raw"))
			run.graphics = GRAPHICS_RAW;
		else
			return usage();
	}
	if (argc - i != 2)
		return usage();
	vs_trace_reader *r = vs_trace_open(argv[i], err, sizeof err);
	if (!r) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	if (pick_arena(run, vs_trace_header_of(r), arena, argv[i]) || vs_out_open(&of, argv[i + 1], err, sizeof err)) {
		if (run.arena >= 0)
			fprintf(stderr, "butano-check: %s\n", err);
		vs_trace_close(r);
		return 2;
	}
	rc = run_trace(run, r, &of);
	vs_trace_close(r);
	if (vs_out_finish(&of, rc == 0, err, sizeof err) || (rc == 0 && vs_out_commit(&of, 1, err, sizeof err))) {
		fprintf(stderr, "butano-check: %s\n", err);
		return 2;
	}
	if (rc)
		return 2;
	fprintf(stderr, "butano-check: Butano %s, %d items: %llu placed, %llu failed (%llu at an assert)\n",
		BN_VERSION_STRING, BN_CFG_SPRITE_TILES_MAX_ITEMS, (unsigned long long)run.placed,
		(unsigned long long)run.failed, (unsigned long long)run.asserts);
	return 0;
}
