import { v7 as uuidv7 } from 'uuid'

/** The id of every new row and event: a UUIDv7, time-ordered, so b-tree inserts append and ids sort by age. */
export const newId = (): string => uuidv7()
