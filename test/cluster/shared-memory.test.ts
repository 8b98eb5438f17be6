import { describe, expect, it } from 'vitest';
import { abandonedSegments, parseSysvShm, postmasterSegment } from '../../runtime/cluster/shared-memory.js';

// As seen on this machine after a postmaster was killed with SIGKILL (its segment stayed, nobody attached).
const PROC_SHM = `       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap
   2146804         28   600                    56 10591 10600      0   101   104   101   104 1796066397 1796066397 1796066394                  4096                     0
   2146805         29   600                    56 20000 20001      1   101   104   101   104 1796066397 1796066397 1796066394                  4096                     0
  -1234567         30   600                  4096   300   300      0     0     0     0     0 1796066397 1796066397 1796066394                  4096                     0
`;
const PID_FILE = '10591\n/tmp/fencecheck-data-f90b3a29c19b/pg1\n1796066394\n5432\n\n10.77.0.51\n  2146804        28\nready   \n';

describe('shared memory of killed PostgreSQL servers', () => {
  it('parses /proc/sysvipc/shm, signed keys included', () => {
    expect(parseSysvShm(PROC_SHM)).toEqual([
      { key: 2146804, shmid: 28, nattch: 0, cpid: 10591 },
      { key: 2146805, shmid: 29, nattch: 1, cpid: 20000 },
      { key: -1234567, shmid: 30, nattch: 0, cpid: 300 },
    ]);
    expect(parseSysvShm('')).toEqual([]);
  });

  it('reads the segment line of postmaster.pid, and nothing before it is written', () => {
    expect(postmasterSegment(PID_FILE)).toEqual({ key: 2146804, shmid: 28 });
    expect(postmasterSegment('10591\n/d\n1796066394\n5432\n\n10.77.0.51\n')).toBeUndefined();
  });

  it('claims only a segment whose key AND id a recorded data dir names, and only when nobody is attached', () => {
    const segments = parseSysvShm(PROC_SHM);
    const claim = (key: number, shmid: number) => ({ key, shmid, dataDir: '/tmp/fencecheck-data-x/pg1' });
    expect(abandonedSegments(segments, [claim(2146804, 28)]).map((s) => s.shmid)).toEqual([28]);
    // Same key, another id: a segment that is not the one our postmaster made.
    expect(abandonedSegments(segments, [claim(2146804, 31)])).toEqual([]);
    // Still attached (a live server): never removed.
    expect(abandonedSegments(segments, [claim(2146805, 29)])).toEqual([]);
    // Another program's segment with nobody attached: not claimed, not removed.
    expect(abandonedSegments(segments, [])).toEqual([]);
    // A key /proc prints signed, written unsigned in a pid file.
    expect(abandonedSegments(segments, [claim(-1234567 >>> 0, 30)]).map((s) => s.shmid)).toEqual([30]);
  });

  it("claims by the data dir's inode alone (initdb's backend, no postmaster.pid yet) only a segment whose creator is gone", () => {
    const segments = parseSysvShm(PROC_SHM);
    const byInode = { key: 2146804, shmid: undefined, dataDir: '/tmp/fencecheck-data-x/pg1' };
    expect(abandonedSegments(segments, [byInode], () => false).map((s) => s.shmid)).toEqual([28]);
    // Its creator still runs (a live initdb): never removed.
    expect(abandonedSegments(segments, [byInode], (pid) => pid === 10591)).toEqual([]);
    // Attached: never removed, whatever the creator.
    expect(abandonedSegments(segments, [{ ...byInode, key: 2146805 }], () => false)).toEqual([]);
  });
});
