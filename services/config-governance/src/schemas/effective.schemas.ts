import { Type } from '@sinclair/typebox'
import { CONFIG_SECTIONS, type ConfigSection, EffectiveField } from '@switchboard/contracts'

/** The sections an effective view answers: every section a document may hold. */
export const EFFECTIVE_SECTIONS = CONFIG_SECTIONS
export type EffectiveSection = ConfigSection

/** A section whose owning service did not answer: its fields are missing from `fields`, never guessed. */
export const UnavailableSection = Type.Object({
  section: Type.Union(EFFECTIVE_SECTIONS.map((s) => Type.Literal(s))),
  service: Type.String(),
  code: Type.String(),
  message: Type.String(),
})

/** `GET /api/security/config/{kind}/effective` (README "Effective configuration"). */
export const EffectiveView = Type.Object({
  tenant_id: Type.String(),
  workspace_id: Type.Optional(Type.String()),
  fields: Type.Array(EffectiveField),
  unavailable: Type.Array(UnavailableSection),
})
