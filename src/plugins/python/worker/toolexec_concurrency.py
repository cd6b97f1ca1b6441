"""The worker's concurrent mode: one asyncio loop serves every request from the first call of an
`async def` tool marked parallel on. A thread reads the host's frames and hands them to the loop;
calls marked `concurrent` become tasks that overlap while they await, up to the host's per-worker
limit; anything else (describe, discover, a call the host sends to this worker alone) runs inline.
Only the loop's thread writes frames, so answers never interleave.
"""
import asyncio
import threading


def serve(worker, incoming, first):
    """`worker`: the running toolexec_worker module (it runs as __main__: importing it again would make a second copy)."""
    loop = worker._loop or asyncio.new_event_loop()
    worker._loop = loop
    asyncio.set_event_loop(loop)
    tasks = {}

    async def run(request):
        try:
            result = await worker.call_concurrently(request)
        finally:
            tasks.pop(request["id"], None)
        result["id"] = request["id"]
        worker._write_frame(4, worker._encode(result))
        if worker._exit_after_answer:
            loop.stop()

    def dispatch(request):
        if request is None:
            loop.stop()  # the host closed the pipe: time to go
        elif request.get("op") == "cancel":
            task = tasks.get(request.get("target"))
            if task is not None:
                task.cancel()
        elif request.get("concurrent"):
            tasks[request["id"]] = loop.create_task(run(request))
        elif not worker.answer(request):
            loop.stop()

    def read():
        while True:
            request = worker.next_request(incoming)
            loop.call_soon_threadsafe(dispatch, request)
            if request is None:
                return

    threading.Thread(target=read, name="toolexec-frames", daemon=True).start()
    dispatch(first)
    loop.run_forever()
