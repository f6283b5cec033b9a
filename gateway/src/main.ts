import { runService } from '@switchboard/platform'
import { build } from './build.ts'
import { loadConfig } from './config.ts'

await runService({ loadConfig, build }, process.env)
