/* SPDX-License-Identifier: Zlib */
/* bn_record_hooks.h - the recording half of tools/butano-record (docs/gba.md,
 * "Recorded Butano programs"). build.sh includes it at the end of a local
 * copy of Butano's bn_sprite_tiles_manager.cpp, whose public calls it has
 * renamed *_unrecorded_; the wrappers below call them and write what the
 * manager did through include/vramsim/record.h:
 *
 * - one allocation a manager item, from its first use to its last: a create
 *   that leaves the item with one use (new, or taken back from waiting)
 *   writes "alloc ITEM obj BYTES tag=dPTR at=ADDR", the graphics pointer as
 *   the tag (butano-sprite-tiles shares equal tags, as items_map keys by the
 *   pointer); a create of graphics already used writes nothing;
 * - allocate (tiles without graphics) writes the same without a tag;
 * - the use that takes the count to 0 (decrease_usages) writes "free ITEM";
 * - update(), once a frame from bn::core, writes "frame" before it frees
 *   the waiting items; the flush inside a create is not a frame;
 * - set_tiles_ref with other graphics writes a free and an alloc of the new
 *   graphics on the same tiles (the trace has no line for a change of
 *   graphics in place), and a comment line to count them by.
 *
 * An item's address is 0x06010000 + start_tile * 32; its size, tiles_count
 * 32-byte tiles. Never part of vramsim's build: it is Butano's code that
 * includes it. */
#include "vramsim/record.h"

/* the manager's items: Butano 21 keeps its static data behind data_ref() */
#ifdef BN_RECORD_DATA_REF
#define BN_RECORD_ITEMS_ data_ref().items
#else
#define BN_RECORD_ITEMS_ data.items
#endif

namespace bn::sprite_tiles_manager
{
namespace
{
    unsigned rec_failed_; /* ids of failed optional creates, never live */

    const char* rec_tag_(const tile* tiles_data, char* buf) /* buf: 10 bytes */
    {
        uintptr_t v = reinterpret_cast<uintptr_t>(tiles_data);
        buf[0] = 'd';
        for(int i = 0; i < 8; ++i)
        {
            buf[1 + i] = "0123456789abcdef"[(v >> (28 - 4 * i)) & 15];
        }
        buf[9] = 0;
        return buf;
    }

    /* "alloc ID obj BYTES [tag=dPTR] at=ADDR" for item id, or at=none */
    void rec_item_(int id, const tile* tiles_data, int tiles_count)
    {
        char tag[10];
        const char* t = tiles_data ? rec_tag_(tiles_data, tag) : nullptr;

        if(id < 0)
        {
            VS_REC_BYTES(0x10000u + rec_failed_++, "obj", t, unsigned(tiles_count) * 32u, VS_REC_FAILED);
            return;
        }
        const item_type& item = BN_RECORD_ITEMS_.item(id);
        VS_REC_BYTES(unsigned(id), "obj", t, unsigned(item.tiles_count) * 32u,
                     0x06010000u + unsigned(item.start_tile) * 32u);
    }

    /* after a create or allocate that returned result: only an item's first use */
    void rec_alloc_(int result, const tile* tiles_data, int tiles_count)
    {
        if(result < 0 || BN_RECORD_ITEMS_.item(result).usages == 1)
        {
            rec_item_(result, tiles_data, tiles_count);
        }
    }
}

void init()
{
    init_unrecorded_();
    VS_REC_BEGIN();
    VS_REC_ARENA("obj", "gba-obj", "mode=0");
}

int create(const span<const tile>& tiles_ref, compression_type compression)
{
    int result = create_unrecorded_(tiles_ref, compression);
    rec_alloc_(result, tiles_ref.data(), tiles_ref.size());
    return result;
}

int create_optional(const span<const tile>& tiles_ref, compression_type compression)
{
    int result = create_optional_unrecorded_(tiles_ref, compression);
    rec_alloc_(result, tiles_ref.data(), tiles_ref.size());
    return result;
}

#ifdef BN_RECORD_CREATE_NEW
int create_new(const span<const tile>& tiles_ref, compression_type compression)
{
    int result = create_new_unrecorded_(tiles_ref, compression);
    rec_alloc_(result, tiles_ref.data(), tiles_ref.size());
    return result;
}

int create_new_optional(const span<const tile>& tiles_ref, compression_type compression)
{
    int result = create_new_optional_unrecorded_(tiles_ref, compression);
    rec_alloc_(result, tiles_ref.data(), tiles_ref.size());
    return result;
}
#endif

int allocate(int tiles_count, bpp_mode bpp)
{
    int result = allocate_unrecorded_(tiles_count, bpp);
    rec_alloc_(result, nullptr, tiles_count);
    return result;
}

int allocate_optional(int tiles_count, bpp_mode bpp)
{
    int result = allocate_optional_unrecorded_(tiles_count, bpp);
    rec_alloc_(result, nullptr, tiles_count);
    return result;
}

void decrease_usages(int id)
{
    decrease_usages_unrecorded_(id);
    if(! BN_RECORD_ITEMS_.item(id).usages)
    {
        VS_REC_FREE(unsigned(id));
    }
}

void set_tiles_ref(int id, const span<const tile>& tiles_ref, compression_type compression)
{
    const tile* old_tiles_data = BN_RECORD_ITEMS_.item(id).data;
    set_tiles_ref_unrecorded_(id, tiles_ref, compression);
    if(old_tiles_data != tiles_ref.data() && BN_RECORD_ITEMS_.item(id).usages)
    {
        VS_REC_LINE("# set_tiles_ref");
        VS_REC_FREE(unsigned(id));
        rec_item_(id, tiles_ref.data(), tiles_ref.size());
    }
}

void update()
{
    VS_REC_FRAME();
    update_unrecorded_();
}
}
