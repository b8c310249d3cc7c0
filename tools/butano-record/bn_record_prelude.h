/* SPDX-License-Identifier: Zlib */
/* bn_record_prelude.h - included by tools/butano-record/build.sh right after
 * the first #include of a local copy of Butano's bn_sprite_tiles_manager.cpp,
 * whose public calls the script renames *_unrecorded_ so that
 * bn_record_hooks.h (included at the file's end) can wrap them. These are
 * the renamed functions' declarations, for the calls the file makes before
 * their definitions. Never part of vramsim's build. */
namespace bn::sprite_tiles_manager
{
    void init_unrecorded_();
    void update_unrecorded_();
}
