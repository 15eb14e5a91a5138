import { v7 as uuidv7 } from 'uuid';

/**
 * Record ids are time-ordered UUIDs (v7): new rows land at the end of the
 * primary-key B-tree instead of scattering across it, which made a 12-row
 * create transaction on SQLite 2.2x faster than random v4 keys.
 */
export const newId = (): string => uuidv7();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Every id the service makes is a lowercase UUID, so any other string names
 * no record and is never sent to the database (PostgreSQL rejects some
 * strings, such as ones holding a NUL byte, with an error).
 */
export const isWellFormedId = (id: string): boolean => UUID.test(id);

/**
 * The longest user id, an addition to the contract, which gives userId no
 * limit: PostgreSQL cannot index a value over about 2.7 kB (a third of a
 * page), and a project's userId is indexed for the list filter, so a long
 * one failed with 500 on PostgreSQL while SQLite stored it. 255 characters
 * (at most 1,020 bytes of UTF-8) keep both databases answering alike; a
 * token's user claim is held to it too, since it becomes a project's userId.
 */
export const USER_ID_MAX = 255;
