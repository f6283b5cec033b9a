// The sections of a scope's stored overrides live in packages/contracts (config-sections.ts): config-governance
// validates documents with them, the owning services apply what they describe. Re-exported here by name.
export {
  ConfigDocument,
  KnowledgeProviderSection,
  LlmSection,
  PortalSection,
  SessionRiskSection,
  WidgetSection,
} from '@switchboard/contracts'
