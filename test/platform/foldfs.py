#!/usr/bin/python3
"""A passthrough FUSE file system that looks names up the way macOS's default APFS does.

    foldfs.py BACKING MOUNTPOINT [--cache off|default] [--types on|off] [--ready FILE] [--parent PID]

Every name is kept as it was written (readdir gives the stored spelling), but a lookup
ignores case and Unicode normalisation: `src/app.ts` finds `Src/App.ts`, and `café.txt`
spelled in NFC finds the entry stored in NFD, and the other way round. A new entry takes
the spelling it was created with; creating a name that folds to an existing one opens that
one. A rename onto a spelling of the same entry (a case-only or normalisation-only rename)
renames it, as APFS does.

`use_ino` makes every spelling of one file report the same inode number. `--cache off`
turns the kernel's attribute, entry and negative caches off (a local disk's semantics);
`--cache default` keeps FUSE's one-second attribute and entry caches, as network mounts
(sshfs and the like) have them: a stat right after a write may answer the old size and times.

The file system runs in the foreground until it is unmounted (fusermount3 -u MOUNTPOINT) or
its parent process (--parent, by default the one that started it) goes away, in which case
it unmounts itself, so an interrupted test run leaves no mount behind. With --ready FILE,
FILE is written once the mount answers.
"""
import argparse
import errno
import os
import subprocess
import sys
import threading
import time
import unicodedata

try:
    import fusepy as fuse  # Debian's python3-fusepy names the module so
except ImportError:  # pragma: no cover - fusepy installed under its upstream name
    import fuse


def fold(name):
    """The key two spellings of one name share: case-folded, canonically decomposed."""
    return unicodedata.normalize('NFD', unicodedata.normalize('NFD', name).casefold())


class FoldFS(fuse.Operations):
    use_ns = True

    def __init__(self, backing, types=True):
        self.root = os.path.realpath(backing)
        self.types = types

    # -- names -------------------------------------------------------------------------
    def _find(self, folder, name):
        """The entry of `folder` that `name` finds: the one spelled so, else the one it folds to."""
        exact = os.path.join(folder, name)
        if os.path.lexists(exact):
            return exact
        want = fold(name)
        try:
            entries = sorted(os.listdir(folder))
        except (FileNotFoundError, NotADirectoryError):
            return None
        for entry in entries:
            if fold(entry) == want:
                return os.path.join(folder, entry)
        return None

    def _real(self, path):
        """The backing path `path` names: each existing component in its stored spelling,
        the rest as written."""
        parts = [p for p in path.split('/') if p]
        cur = self.root
        for i, part in enumerate(parts):
            found = self._find(cur, part)
            if found is None:
                return os.path.join(cur, *parts[i:])
            cur = found
        return cur

    # -- attributes --------------------------------------------------------------------
    def getattr(self, path, fh=None):
        st = os.fstat(fh) if fh is not None else os.lstat(self._real(path))
        out = {key: getattr(st, key) for key in ('st_mode', 'st_ino', 'st_nlink', 'st_uid', 'st_gid', 'st_size', 'st_blocks')}
        out.update(st_atime=st.st_atime_ns, st_mtime=st.st_mtime_ns, st_ctime=st.st_ctime_ns)
        return out

    def access(self, path, amode):
        if not os.access(self._real(path), amode):
            raise fuse.FuseOSError(errno.EACCES)

    def chmod(self, path, mode):
        os.chmod(self._real(path), mode)

    def chown(self, path, uid, gid):
        os.lchown(self._real(path), uid, gid)

    def utimens(self, path, times=None):
        os.utime(self._real(path), ns=times, follow_symlinks=False) if times else os.utime(self._real(path), follow_symlinks=False)

    def statfs(self, path):
        sv = os.statvfs(self._real(path))
        return {key: getattr(sv, key) for key in ('f_bavail', 'f_bfree', 'f_blocks', 'f_bsize', 'f_favail', 'f_ffree', 'f_files', 'f_flag', 'f_frsize', 'f_namemax')}

    # -- folders and links -------------------------------------------------------------
    def readdir(self, path, fh):
        # with each entry's type, as APFS gives it (readdir's d_type), so a reader need not stat each;
        # with --types off, names only (DT_UNKNOWN), as some network and FUSE mounts give them
        out = ['.', '..']
        with os.scandir(self._real(path)) as entries:
            for e in sorted(entries, key=lambda e: e.name):
                out.append((e.name, {'st_mode': e.stat(follow_symlinks=False).st_mode, 'st_ino': e.inode()}, 0) if self.types else e.name)
        return out

    def mkdir(self, path, mode):
        os.mkdir(self._real(path), mode)

    def rmdir(self, path):
        os.rmdir(self._real(path))

    def readlink(self, path):
        return os.readlink(self._real(path))

    def symlink(self, target, source):
        os.symlink(source, self._real(target))

    def link(self, target, source):
        os.link(self._real(source), self._real(target))

    def unlink(self, path):
        os.unlink(self._real(path))

    def mknod(self, path, mode, dev):
        os.mknod(self._real(path), mode, dev)

    def rename(self, old, new):
        src = self._real(old)
        folder = self._real(os.path.dirname(new))
        name = os.path.basename(new)
        wanted = os.path.join(folder, name)
        there = self._find(folder, name)
        if there is None or there == wanted:
            os.rename(src, wanted)
        elif there == src:
            # another spelling of the same entry: the entry takes the new spelling
            os.rename(src, wanted)
        else:
            # onto an entry spelled otherwise: it is replaced, and the name is the one given
            os.rename(src, there)
            os.rename(there, wanted)

    # -- file contents -----------------------------------------------------------------
    def open(self, path, flags):
        return os.open(self._real(path), flags)

    def create(self, path, mode, fi=None):
        return os.open(self._real(path), os.O_RDWR | os.O_CREAT, mode)

    def read(self, path, size, offset, fh):
        return os.pread(fh, size, offset)

    def write(self, path, data, offset, fh):
        return os.pwrite(fh, data, offset)

    def truncate(self, path, length, fh=None):
        if fh is not None:
            os.ftruncate(fh, length)
        else:
            os.truncate(self._real(path), length)

    def flush(self, path, fh):
        return 0

    def release(self, path, fh):
        os.close(fh)
        return 0

    def fsync(self, path, datasync, fh):
        (os.fdatasync if datasync else os.fsync)(fh)
        return 0


def mounted(mountpoint):
    with open('/proc/self/mounts', encoding='utf-8') as f:
        return any(line.split()[1] == mountpoint for line in f)


def unmount(mountpoint):
    subprocess.run(['fusermount3', '-u', '-z', mountpoint], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('backing')
    ap.add_argument('mountpoint')
    ap.add_argument('--cache', choices=('off', 'default'), default='off')
    ap.add_argument('--types', choices=('on', 'off'), default='on', help="whether readdir gives each entry's type")
    ap.add_argument('--ready')
    ap.add_argument('--parent', type=int, help='the process whose end unmounts the volume (a parent that ended before this started is seen too)')
    a = ap.parse_args()
    mountpoint = os.path.realpath(a.mountpoint)
    opts = dict(foreground=True, use_ino=True, fsname='foldfs', subtype='foldfs')
    if a.cache == 'off':
        opts.update(attr_timeout=0, entry_timeout=0, negative_timeout=0)

    parent = a.parent or os.getppid()

    def watch():
        # announce the mount once it answers; unmount when the process that started it is gone
        while a.ready and not mounted(mountpoint):
            time.sleep(0.02)
        if a.ready:
            with open(a.ready, 'w', encoding='utf-8') as f:
                f.write(str(os.getpid()))
        while os.getppid() == parent:
            time.sleep(0.2)
        unmount(mountpoint)

    threading.Thread(target=watch, daemon=True).start()
    fuse.FUSE(FoldFS(a.backing, types=a.types == 'on'), mountpoint, **opts)
    return 0


if __name__ == '__main__':
    sys.exit(main())
