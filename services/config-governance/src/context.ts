import type { SecretBox, ServiceClient, ServiceContext } from '@switchboard/platform'
import type { ConfigGovernanceConfig } from './config.ts'
import type { ConfigGovernanceDatabase } from './db/database.ts'
import type { PortalResolver } from './queries/portal.queries.ts'

/** config-governance's own parts of the context, made once per app (`context` of the descriptor). */
export interface ConfigGovernanceParts {
  /** seals and opens the secrets of stored documents */
  box: SecretBox
  /** the public portal's effective config per scope, cached briefly per replica */
  portal: PortalResolver
  /**
   * the services owning the other sections, asked for their effective view of a scope (`/internal/config/effective`);
   * one without its UPSTREAM_* is absent
   */
  owners: { identity?: ServiceClient | undefined; 'ai-orchestrator'?: ServiceClient | undefined }
}

/** What config-governance's routes and commands are handed. */
export type ConfigGovernanceService = ServiceContext<ConfigGovernanceConfig, ConfigGovernanceDatabase> &
  ConfigGovernanceParts
