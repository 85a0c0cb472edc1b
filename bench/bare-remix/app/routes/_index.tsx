import type { MetaFunction } from '@remix-run/node'

export const meta: MetaFunction = () => [
  { title: 'A bare Remix page' },
  { name: 'description', content: 'The baseline page the benchmark scores beside the farm site.' },
]

export default function Index() {
  return (
    <main>
      <h1>Fresh from our fields</h1>
      <p>Seasonal produce, farm events and offers, straight from the farm.</p>
    </main>
  )
}
