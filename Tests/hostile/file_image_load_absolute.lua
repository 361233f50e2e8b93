-- ca.Image.load of an absolute path. The refusal must come before the read: an error about
-- the file's content ("not a PNG or JPEG") would tell the script the file exists.
-- expect: not allowed in the sandbox
local ca = require "caluna"
ca.Image.load("/etc/passwd")
