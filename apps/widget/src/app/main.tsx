// Placeholder until the chat app lands (widget-app owns src/app/**): the frame renders and says it is ready.
import { render } from 'preact'

const root = document.getElementById('root')
if (root) render(<main>Chat</main>, root)
