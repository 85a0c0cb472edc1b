import { ensureBuild } from './build'

export default function setup() {
  ensureBuild()
}
