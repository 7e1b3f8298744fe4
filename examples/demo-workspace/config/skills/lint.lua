-- Checks the configuration files it is given and returns the problems it finds.
function invoke(request)
  local problems = {}
  for _, file in ipairs(request.files or {}) do
    if file.size == 0 then table.insert(problems, file.path .. " is empty") end
  end
  return { problems = problems }
end
