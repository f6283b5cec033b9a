import { runService } from '@switchboard/platform'
import { configGovernance } from './build.ts'

await runService(configGovernance, process.env)
